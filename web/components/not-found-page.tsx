import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/app/routes.ts';

export function NotFoundPage() {
  return (
    <Center mih="100vh">
      <Stack align="center" gap="sm">
        <Title order={1}>Page not found</Title>
        <Text c="dimmed">The page you asked for does not exist.</Text>
        <Button component={Link} to={paths.root}>
          Go to the portal
        </Button>
      </Stack>
    </Center>
  );
}
