import { Box, Center, Paper, Skeleton, Stack } from '@mantine/core';
import {
  Component,
  type ComponentType,
  type LazyExoticComponent,
  type ReactNode,
  Suspense,
} from 'react';
import { ScreenContentSkeleton } from '@/components/layouts/area-skeleton.tsx';
import { QueryErrorState } from '@/components/query-error-state.tsx';
import { lazyExport } from '@/lib/lazy-export.ts';

/**
 * A screen loaded on first visit: `lazyScreen(() => import('./x-page.tsx'), 'XPage')`. Vite
 * puts the module (and whatever only it imports) into its own chunk, fetched when the route
 * first renders; a failed fetch throws into the screen's error boundary (`Screen`).
 */
export function lazyScreen<K extends string, P extends object = object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
): LazyExoticComponent<ComponentType<P>> {
  return lazyExport(load, name);
}

/** What the browsers say when a chunk (or its CSS) cannot be fetched, e.g. after a deploy. */
const chunkErrorPattern =
  /dynamically imported module|importing a module script failed|failed to load module script|unable to preload css/i;

/** True for an error that means "this part of the app could not be downloaded". */
export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && chunkErrorPattern.test(error.message);
}

type ScreenProps = {
  /** Shown while the screen's chunk downloads. */
  fallback: ReactNode;
  children: ReactNode;
};

type BoundaryState = { error: unknown };

/** Catches what a screen throws while rendering, a failed chunk download included. */
export class ScreenErrorBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error };
  }

  override render() {
    if (this.state.error !== null) return <ScreenLoadError error={this.state.error} />;
    return this.props.children;
  }
}

/**
 * The boundaries of one lazy route: its error state, then its loading state. Give it a `key` per
 * route: a new Suspense boundary shows its fallback at once, so following a link shows the
 * skeleton instead of the old screen lingering, and an error on one screen stays on that one.
 */
export function Screen({ fallback, children }: ScreenProps) {
  return (
    <ScreenErrorBoundary>
      <Suspense fallback={fallback}>{children}</Suspense>
    </ScreenErrorBoundary>
  );
}

/** The content area of a signed-in screen while its chunk loads (the sidebar stays). */
export function ScreenSkeleton() {
  return (
    <Box role="status" aria-busy="true" aria-label="Loading">
      <ScreenContentSkeleton />
    </Box>
  );
}

/** A public screen (login, sign-up) while its chunk loads: the shape of the form card. */
export function PublicScreenSkeleton() {
  return (
    <Box mih="100vh" bg="gray.0" py={{ base: 'md', sm: 48 }} px="md" aria-busy="true">
      <Center>
        <Stack w="100%" maw={440} gap="lg" role="status" aria-label="Loading">
          <Center>
            <Skeleton height={48} width={140} radius="sm" />
          </Center>
          <Paper withBorder shadow="sm" radius="md" p={{ base: 'md', sm: 'xl' }}>
            <Skeleton height={28} width="60%" mb="lg" />
            <Stack gap="md">
              <Skeleton height={56} />
              <Skeleton height={56} />
              <Skeleton height={36} />
            </Stack>
          </Paper>
        </Stack>
      </Center>
    </Box>
  );
}

/**
 * What a screen shows instead when its chunk will not download (the portal was updated, or the
 * network dropped) or it crashed. Inside an area it replaces only the screen, so the sidebar
 * stays; Reload fetches the current index.html and its chunks (a failed lazy import is cached
 * by React, so only a reload can retry it).
 */
export function ScreenLoadError({ error }: { error: unknown }) {
  const chunk = isChunkLoadError(error);
  const title = chunk ? 'This screen could not be loaded' : 'Something went wrong on this screen';
  const message = chunk
    ? 'The portal may have been updated since this page was opened, or the connection dropped. Reload the page to continue.'
    : error instanceof Error && error.message
      ? error.message
      : 'An unexpected error occurred. Reload the page to try again.';
  return (
    <Box p="md" maw={640} mx="auto" mt="xl">
      <QueryErrorState
        title={title}
        message={message}
        onRetry={() => window.location.reload()}
        retryLabel="Reload"
      />
    </Box>
  );
}

/**
 * The `element` of a lazy route, spread into its route object:
 * `{ path, ...screenRoute('leads', LeadsPage) }`. `id` keys the boundaries (unique per route);
 * `fallback` defaults to the in-shell skeleton.
 */
export function screenRoute(
  id: string,
  Component: ComponentType,
  fallback: ReactNode = <ScreenSkeleton />,
) {
  return {
    element: (
      <Screen key={id} fallback={fallback}>
        <Component />
      </Screen>
    ),
  };
}
