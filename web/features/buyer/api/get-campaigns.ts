import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { useListQuery } from '@/lib/api-queries.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';

/** Prefix of every campaigns query; invalidate it after a campaign is created. */
export const campaignsKey = ['buyer', 'campaigns'] as const;

export type CampaignsQuery = EndpointQuery<typeof apiRoutes.buyer.campaigns>;

/** One page of the buyer's own campaigns, searched and sorted on the server. */
export function useCampaigns(query: CampaignsQuery) {
  return useListQuery(campaignsKey, apiRoutes.buyer.campaigns, query, { staleTime: 30_000 });
}

/** The campaign count's query (the hook's, and the first load's prefetch). */
export const campaignCountQuery = queryOptions({
  queryKey: [...campaignsKey, 'count'],
  queryFn: ({ signal }) =>
    apiCall(apiRoutes.buyer.campaigns, { query: { page: 1, page_size: 1 }, signal }).then(
      (r) => r.total,
    ),
  staleTime: 30_000,
});

/** How many campaigns the buyer has (the dashboard's card): the total of a one-row page. */
export function useCampaignCount() {
  return useQuery(campaignCountQuery);
}
