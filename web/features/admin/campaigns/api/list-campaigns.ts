import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CampaignList } from '../../../../../contract/admin.ts';
import { api } from '../../../../lib/api-client.ts';

export type CampaignListParams = {
  page: number;
  page_size: number;
  sort: 'created_at' | 'name' | 'budget' | 'start_date';
  order: 'asc' | 'desc';
  q?: string;
};

export const campaignsKey = ['admin', 'campaigns'] as const;

export function listCampaigns(params: CampaignListParams): Promise<CampaignList> {
  return api<CampaignList>('admin/campaigns', { query: params });
}

/** GET /api/v1/admin/campaigns: every buyer's campaigns with the buyer's name and e-mail. */
export function useCampaigns(params: CampaignListParams) {
  return useQuery({
    queryKey: [...campaignsKey, 'list', params],
    queryFn: () => listCampaigns(params),
    placeholderData: keepPreviousData,
  });
}
