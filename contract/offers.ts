import { z } from 'zod';
import { requiredText } from './admin-common.ts';
import { IsoDateTime, listQuery, Money, moneyInput, pageOf, searchParam } from './list.ts';
import {
  OfferRules,
  OfferRulesInput,
  PayoutOverride,
  PayoutOverridesInput,
} from './offer-rules.ts';
import { OfferStatus } from './roles.ts';
import { ScriptAckDays, ScriptAckMode } from './scripts.ts';

/** Offers as the admin manages them. */
// ---------------------------------------------------------------------------
// Offers
// ---------------------------------------------------------------------------

export const OfferListQuery = listQuery(
  ['created_at', 'title', 'vertical', 'payout', 'status'],
  'created_at',
  {
    q: searchParam,
    status: OfferStatus.optional(),
    vertical: z.string().trim().max(100).optional(),
  },
);
export type OfferListQuery = z.infer<typeof OfferListQuery>;

/** What an offer is and pays, the same in the admin's answers and the publisher's. */
export const offerAnswerFields = { title: z.string(), vertical: z.string(), payout: Money };

export const AdminOffer = z.object({
  id: z.string(),
  ...offerAnswerFields,
  script_instructions: z.string().nullable(),
  /** The current script version (issue 33); null = the offer never had a script. */
  script_version: z.number().int().nullable(),
  /** Calls of a publisher late to acknowledge the script: flagged, or held as pending. */
  script_ack_mode: ScriptAckMode,
  script_ack_days: z.number().int(),
  status: OfferStatus,
  /** What makes an ingested call payable (contract/offer-rules.ts). */
  rules: OfferRules,
  /** Publishers paid another amount than `payout` on this offer. */
  payout_overrides: z.array(PayoutOverride),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
});
export type AdminOffer = z.infer<typeof AdminOffer>;
export const OfferList = pageOf(AdminOffer);
export type OfferList = z.infer<typeof OfferList>;

/** What both the create and the edit form send first. */
const offerFields = {
  title: requiredText('Title', 200),
  vertical: requiredText('Vertical', 100),
  payout: moneyInput('Payout'),
};
const scriptInstructions = z
  .string()
  .max(20_000, { error: 'Script instructions can be at most 20000 characters.' })
  .nullable();

export const CreateOffer = z.object({
  ...offerFields,
  script_instructions: scriptInstructions.optional(),
  script_ack_mode: ScriptAckMode.optional(),
  script_ack_days: ScriptAckDays.optional(),
  status: OfferStatus.default('active'),
  /** Omitted: no rules (every completed call pays). */
  rules: OfferRulesInput.optional(),
  payout_overrides: PayoutOverridesInput.optional(),
});
export type CreateOffer = z.input<typeof CreateOffer>;

export const UpdateOffer = z
  .object({
    ...offerFields,
    script_instructions: scriptInstructions,
    script_ack_mode: ScriptAckMode,
    script_ack_days: ScriptAckDays,
    status: OfferStatus,
    /** Replaces all the rules (an omitted rule inside is cleared). */
    rules: OfferRulesInput,
    /** Replaces the whole list. */
    payout_overrides: PayoutOverridesInput,
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { error: 'Nothing to change.' });
export type UpdateOffer = z.infer<typeof UpdateOffer>;
