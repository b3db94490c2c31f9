import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { postbackRoutes } from '@/components/postbacks/postbacks-api.ts';
import { PostbacksWithLog } from '@/components/postbacks/postbacks-editor.tsx';

/**
 * A publisher's postbacks as the admin sees them: the templates (set them for the publisher,
 * with Test, and per offer), and their delivery log. Folded until opened.
 */
export function PostbacksCard({ publisherId }: { publisherId: string }) {
  const [open, setOpen] = useState(false);
  const routes = useMemo(() => postbackRoutes({ kind: 'admin', publisherId }), [publisherId]);
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" wrap="wrap" gap="sm" mb={open ? 'md' : 0}>
        <Stack gap={2}>
          <Title order={2} fz="lg">
            Postbacks
          </Title>
          <Text size="sm" c="dimmed">
            The URLs this publisher&apos;s tracker is called at when a call pays or changes.
          </Text>
        </Stack>
        <Button variant="light" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
          {open ? 'Hide Postbacks' : 'Show Postbacks'}
        </Button>
      </Group>
      {open ? <PostbacksWithLog routes={routes} titleOrder={3} editPerOffer /> : null}
    </Card>
  );
}
