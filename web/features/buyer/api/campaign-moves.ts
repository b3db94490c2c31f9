import { useSendTo } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { campaignsKey } from './get-campaigns.ts';

/** POST /api/v1/buyer/campaigns/:id/pause | resume | end (issue 31): `mutate({ id })`. */
export const useCampaignMove = (move: 'pause' | 'resume' | 'end') =>
  useSendTo(apiRoutes.buyer.campaignMove(move), campaignsKey);
