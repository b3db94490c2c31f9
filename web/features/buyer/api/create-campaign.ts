import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Campaign, CreateCampaignBody } from '../../../../contract/buyer.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { apiRoutes } from '../../../lib/api-routes.ts';
import { campaignsKey } from './get-campaigns.ts';

/** POST /api/v1/buyer/campaigns: the server owns the campaign by the caller's session. */
export function createCampaign(body: CreateCampaignBody): Promise<Campaign> {
  return apiCall(apiRoutes.buyer.createCampaign, { body });
}

/** Creates a campaign and refreshes the list (and the dashboard's count) that reads it. */
export function useCreateCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCampaign,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignsKey }),
  });
}
