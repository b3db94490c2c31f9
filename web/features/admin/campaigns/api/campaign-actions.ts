import { useSendTo } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { campaignsKey } from './list-campaigns.ts';

/** POST /api/v1/admin/campaigns/:id/approve {offer_id, price_per_call, …} (issue 31). */
export const useApproveCampaign = () => useSendTo(apiRoutes.admin.approveCampaign, campaignsKey);
/** POST /api/v1/admin/campaigns/:id/reject {reason}. */
export const useRejectCampaign = () => useSendTo(apiRoutes.admin.rejectCampaign, campaignsKey);
/** POST /api/v1/admin/campaigns/:id/pause {reason?} | resume | end. */
export const useCampaignMove = (move: 'pause' | 'resume' | 'end') =>
  useSendTo(apiRoutes.admin.campaignMove(move), campaignsKey);
