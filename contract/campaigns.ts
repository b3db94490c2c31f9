import { z } from 'zod';
import { nonBlankText, optionalText, uuidParam } from './admin-common.ts';
import { campaignFields } from './buyer.ts';
import { IsoDateTime, listQuery, moneyInput, pageOf, searchParam } from './list.ts';
import { OfferRules, OfferRulesInput } from './offer-rules.ts';
import { CampaignStatus } from './roles.ts';

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
    status: CampaignStatus.optional(),
  },
);
export type CampaignListQuery = z.infer<typeof CampaignListQuery>;

export const AdminCampaign = z.object({
  id: z.string(),
  buyer_id: z.string(),
  buyer_name: z.string().nullable(),
  buyer_email: z.string(),
  ...campaignFields,
  offer_id: z.string().nullable(),
  offer_title: z.string().nullable(),
  allowed_states: z.array(z.string()),
  open_hours: OfferRules.shape.open_hours,
  approved_at: IsoDateTime.nullable(),
});
export type AdminCampaign = z.infer<typeof AdminCampaign>;
export const CampaignList = pageOf(AdminCampaign);
export type CampaignList = z.infer<typeof CampaignList>;

/**
 * POST /api/v1/admin/campaigns/:id/approve (issue 31): the offer the campaign buys and its
 * terms; the billable duration, daily cap, states and hours read as the offer rules do.
 */
export const ApproveCampaign = OfferRulesInput.pick({
  buffer_seconds: true,
  daily_cap: true,
  allowed_states: true,
  open_hours: true,
}).extend({
  offer_id: z.uuid({ error: 'Please select the offer this campaign buys.' }),
  price_per_call: moneyInput('Price per call', { positive: true }),
});
export type ApproveCampaign = z.output<typeof ApproveCampaign>;

/** POST …/reject: the reason the buyer reads. */
export const RejectCampaign = z.object({
  reason: nonBlankText(1000, {
    required: 'Please give the reason the buyer will read.',
    tooLong: 'Reason can be at most 1000 characters.',
  }),
});
export type RejectCampaign = z.output<typeof RejectCampaign>;

/** POST …/pause by an admin: an optional reason the buyer reads. */
export const PauseCampaign = z.object({
  reason: optionalText(1000, 'Reason can be at most 1000 characters.'),
});
export type PauseCampaign = z.output<typeof PauseCampaign>;

/** One tracker id of a buyer or target, on one integration. */
export const CampaignExternalId = z.object({
  integration_id: uuidParam('integration'),
  external_id: nonBlankText(200, {
    required: 'The tracker id is required.',
    tooLong: 'A tracker id can be at most 200 characters.',
  }),
});

/**
 * PUT /api/v1/admin/campaigns/:id/external-ids: the campaign's tracker ids, all of them (the
 * set replaces the previous one); calls sent with one of them as `buyer` bill this campaign.
 */
export const PutCampaignExternalIds = z.object({
  external_ids: z.array(CampaignExternalId).max(100, { error: 'At most 100 tracker ids.' }),
});
export type PutCampaignExternalIds = z.output<typeof PutCampaignExternalIds>;
export const CampaignExternalIds = z.object({
  external_ids: z.array(
    CampaignExternalId.extend({ integration_name: z.string(), created_at: IsoDateTime }),
  ),
});
export type CampaignExternalIds = z.infer<typeof CampaignExternalIds>;
