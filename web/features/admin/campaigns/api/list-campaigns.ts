import { useListQuery } from '@/lib/api-queries.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';

export type CampaignListParams = EndpointQuery<typeof apiRoutes.admin.campaigns>;

/** Every admin campaigns query starts with this key; invalidate it after any change. */
export const campaignsKey = ['admin', 'campaigns'] as const;

/** GET /api/v1/admin/campaigns: every buyer's campaigns with the buyer's name and e-mail. */
export function useCampaigns(params: CampaignListParams) {
  return useListQuery(campaignsKey, apiRoutes.admin.campaigns, params);
}
