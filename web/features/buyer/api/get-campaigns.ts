import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CampaignList, CampaignSortKey } from '../../../../contract/buyer.ts';
import type { SortOrder } from '../../../../contract/list.ts';
import { api } from '../../../lib/api-client.ts';

/** Prefix of every campaigns query; invalidate it after a campaign is created. */
export const campaignsKey = ['buyer', 'campaigns'] as const;

/** Query of the list (the contract's schema coerces strings; the web sends numbers). */
export type CampaignsQuery = {
  page: number;
  page_size: number;
  /** Part of the name, goal, target audience or location (any case). */
  q?: string;
  sort?: CampaignSortKey;
  order?: SortOrder;
};

export function listCampaigns(query: CampaignsQuery, signal?: AbortSignal): Promise<CampaignList> {
  return api<CampaignList>('buyer/campaigns', { query, signal });
}

/** One page of the buyer's own campaigns, searched and sorted on the server. */
export function useCampaigns(query: CampaignsQuery) {
  return useQuery({
    queryKey: [...campaignsKey, 'list', query],
    queryFn: ({ signal }) => listCampaigns(query, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** How many campaigns the buyer has (the dashboard's card): the total of a one-row page. */
export function useCampaignCount() {
  return useQuery({
    queryKey: [...campaignsKey, 'count'],
    queryFn: ({ signal }) => listCampaigns({ page: 1, page_size: 1 }, signal).then((r) => r.total),
    staleTime: 30_000,
  });
}
