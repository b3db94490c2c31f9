import { z } from 'zod';
import { uuidParam } from './admin-common.ts';
import { campaignFields } from './buyer.ts';
import { listQuery, pageOf, searchParam } from './list.ts';

/** Campaigns as the admin lists them. */
// ---------------------------------------------------------------------------
// Campaigns
// ---------------------------------------------------------------------------

export const CampaignListQuery = listQuery(
  ['created_at', 'name', 'budget', 'start_date'],
  'created_at',
  {
    q: searchParam,
    buyer_id: uuidParam('buyer').optional(),
  },
);
export type CampaignListQuery = z.infer<typeof CampaignListQuery>;

export const AdminCampaign = z.object({
  id: z.string(),
  buyer_id: z.string(),
  buyer_name: z.string().nullable(),
  buyer_email: z.string(),
  ...campaignFields,
});
export type AdminCampaign = z.infer<typeof AdminCampaign>;
export const CampaignList = pageOf(AdminCampaign);
export type CampaignList = z.infer<typeof CampaignList>;
