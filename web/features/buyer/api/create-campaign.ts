import type { CreateCampaignBody } from '@contract/buyer.ts';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { campaignsKey } from './get-campaigns.ts';

/**
 * POST /api/v1/buyer/campaigns (the server owns the campaign by the caller's session); refreshes
 * the list and the dashboard's count that read it.
 */
export const useCreateCampaign = () =>
  useApiMutation(
    (body: CreateCampaignBody) => apiCall(apiRoutes.buyer.createCampaign, { body }),
    campaignsKey,
  );
