import { Box, Group, Skeleton, Stack } from '@mantine/core';

/** A signed-in screen's content while it loads: its title, three cards and a block. */
export function ScreenContentSkeleton() {
  return (
    <>
      <Skeleton height={32} width="40%" mb="xl" />
      <Group grow mb="xl">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={96} />
        ))}
      </Group>
      <Skeleton height={240} />
    </>
  );
}

/** What a signed-in area shows while the session and the role resolve: shapes, never a spinner. */
export function AreaSkeleton() {
  return (
    <Group align="stretch" gap={0} mih="100vh" role="status" aria-busy="true" aria-label="Loading">
      <Box
        w={260}
        p="md"
        visibleFrom="sm"
        style={{ borderRight: '1px solid var(--mantine-color-gray-3)' }}
      >
        <Skeleton height={40} width={140} mb="xl" />
        <Stack gap="sm">
          {[0, 1, 2, 3, 4, 5].map((i) => (
            <Skeleton key={i} height={32} />
          ))}
        </Stack>
      </Box>
      <Box flex={1} p="xl">
        <ScreenContentSkeleton />
      </Box>
    </Group>
  );
}
