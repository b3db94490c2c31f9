import { useSendTo } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { campaignsKey } from './get-campaigns.ts';

/**
 * PATCH /api/v1/buyer/campaigns/:id: the budget and dates of one of the buyer's own campaigns
 * (`mutate({ id, budget, start_date, end_date })`); refreshes the campaigns list.
 */
export const useUpdateCampaign = () => useSendTo(apiRoutes.buyer.updateCampaign, campaignsKey);
