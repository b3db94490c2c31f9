import type { FetchQueryOptions, Query, QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * The first load's prefetch (web/app/routes/area-screens.tsx, `home(…, prefetch)`) without a
 * second request: a query the prefetch answered before any screen mounted it is not read again
 * by that first mount (the screen's hooks pass `refetchOnMount: unlessPrefetched`). Every later
 * mount, a focus, an invalidation read it as before.
 *
 * React Query asks `refetchOnMount` more than once for one mount: in each render before the
 * observer subscribes (its optimistic result), then when it subscribes. So asking does not use
 * the mark up; the first observer's arrival does, once that mount has finished (the cache's
 * `observerAdded` event, then a macrotask). A mark read and dropped at the first question let
 * the subscription ask again: the screen re-read every prefetched query on the first load.
 */
const answeredFirst = new Set<string>();
const watched = new WeakSet<QueryClient>();

/** Drops a query's mark once its first observer's mount is over. */
function watch(client: QueryClient) {
  if (watched.has(client)) return;
  watched.add(client);
  client.getQueryCache().subscribe((event) => {
    if (event.type !== 'observerAdded') return;
    const hash = event.query.queryHash;
    if (answeredFirst.has(hash)) setTimeout(() => answeredFirst.delete(hash), 0);
  });
}

/** Prefetches `options` into the cache; its first mount then uses the answer as it is. */
export async function prefetchFirst<T, K extends QueryKey>(
  client: QueryClient,
  options: FetchQueryOptions<T, Error, T, K>,
): Promise<void> {
  // A screen already reads it (the prefetch came late: after a second factor, say): its own.
  const before = client.getQueryCache().find({ queryKey: options.queryKey, exact: true });
  if (before && (before.getObserversCount() > 0 || before.state.data !== undefined)) return;
  watch(client);
  await client.prefetchQuery(options);
  const query = client.getQueryCache().find({ queryKey: options.queryKey, exact: true });
  // Mounted while the request was under way: that mount shared it, nothing to skip.
  if (query?.state.status === 'success' && query.getObserversCount() === 0) {
    answeredFirst.add(query.queryHash);
  }
}

/** `refetchOnMount` of a prefetched query: not on the first mount after the prefetch's answer. */
export const unlessPrefetched = (query: Pick<Query, 'queryHash'>): boolean =>
  !answeredFirst.has(query.queryHash);
