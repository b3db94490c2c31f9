import type { PublisherRangeOverview } from '@contract/reports.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';
import { publisherKeys } from './keys.ts';

export type OverviewRangeParams = EndpointQuery<typeof apiRoutes.publisher.overviewRange>;

export function getOverviewRange(query: OverviewRangeParams): Promise<PublisherRangeOverview> {
  return apiCall(apiRoutes.publisher.overviewRange, { query });
}

/**
 * GET /api/v1/publisher/overview/range: the lead and payout cards and the chart over the picked
 * days (network zone); off while the overview shows any date.
 */
export function useOverviewRange(query: OverviewRangeParams, enabled: boolean) {
  return useQuery({
    queryKey: [...publisherKeys.overview, 'range', query],
    queryFn: () => getOverviewRange(query),
    enabled,
    placeholderData: keepPreviousData,
  });
}
