import type { PublisherOverview } from '@contract/publisher.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { unlessPrefetched } from '@/lib/prefetch.ts';
import { publisherKeys } from './keys.ts';

export function getOverview(): Promise<PublisherOverview> {
  return apiCall(apiRoutes.publisher.overview);
}

/** The overview's query (the hook's, and the first load's prefetch). */
export const overviewQuery = queryOptions({
  queryKey: publisherKeys.overview,
  queryFn: getOverview,
  refetchOnMount: unlessPrefetched,
});

/** The four cards, Recent Activity and the 30-day series of the signed-in publisher. */
export function useOverview() {
  return useQuery(overviewQuery);
}
