import { Box, Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { setScreenTitleOverride } from '@/app/document-title.tsx';
import { paths } from '@/app/routes.ts';
import { BrandLogo } from '@/components/brand-logo.tsx';

type NotFoundPageProps = {
  /**
   * Inside a signed-in area: the area's home (label and path). The page then sits in the area's
   * own layout (sidebar and header stay), and its way back leads to that home.
   */
  areaHome?: { label: string; to: string };
};

/** Names the tab "Page not found · {Company}" while the page is shown. */
function useNotFoundTitle() {
  useEffect(() => {
    setScreenTitleOverride('Page not found');
    return () => setScreenTitleOverride(null);
  }, []);
}

/**
 * The 404 screen. In an area it keeps the area's layout; elsewhere it shows the network's logo.
 * Either way it says which address was not found and offers a way back: to the area's home (or
 * the portal, which sends a signed-in user to their area and anyone else to sign in), and to the
 * previous page when there is one.
 */
export function NotFoundPage({ areaHome }: NotFoundPageProps) {
  useNotFoundTitle();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const home = areaHome ?? { label: 'Go to the portal', to: paths.root };
  // React Router numbers history entries; idx 0 is the first page of this tab.
  const canGoBack = ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;

  const body = (
    <Stack align="center" gap="sm" ta="center" maw={480}>
      <Text fw={700} c="dimmed" fz={48} lh={1} aria-hidden>
        404
      </Text>
      <Title order={1} fz="h2">
        Page not found
      </Title>
      <Text c="dimmed">
        There is no page at{' '}
        <Text span ff="monospace" c="dark" style={{ wordBreak: 'break-all' }}>
          {pathname}
        </Text>
        . The link may be old, or the address mistyped.
      </Text>
      <Group justify="center" mt="xs">
        {canGoBack && (
          <Button variant="default" onClick={() => navigate(-1)}>
            Go back
          </Button>
        )}
        <Button component={Link} to={home.to}>
          {areaHome ? `Back to ${areaHome.label}` : home.label}
        </Button>
      </Group>
    </Stack>
  );

  if (areaHome) {
    return (
      <Center mih="60vh" px="md">
        {body}
      </Center>
    );
  }
  return (
    <Center mih="100vh" px="md" bg="gray.0">
      <Paper withBorder shadow="sm" radius="md" p="xl">
        <Stack align="center" gap="lg">
          <Box>
            <BrandLogo height={40} />
          </Box>
          {body}
        </Stack>
      </Paper>
    </Center>
  );
}
