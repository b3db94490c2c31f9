import { z } from 'zod';
import { requiredText } from './admin-common.ts';
import { emailField } from './email.ts';
import { IsoDateTime, Money, moneyInput } from './list.ts';
import { Currency, PayoutHoldCondition, payoutHoldConditions } from './money.ts';
import { CompanyAddress, PhoneCountry, PublicSettings, TimeZoneName } from './settings.ts';

/** The admin settings. */
// ---------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------

/** GET /admin/settings: every field, the public ones first; logo_url is the logo URL or null. */
export const AdminSettings = PublicSettings.extend({
  /** "All owed above threshold" in a payout run pays publishers owed at least this. */
  min_payout: Money,
  /** The country (ISO 3166 alpha-2) a phone number sent without its country code is read in. */
  phone_country: z.string(),
  /** The network's postal address, several lines, printed on statements; null = not printed. */
  company_address: z.string().nullable(),
  /** Which conditions hold a publisher's payout in a run (contract/money.ts). */
  payout_holds: z.array(z.enum(payoutHoldConditions)),
  /** Days after a call in which its buyer may return it (issue 31). */
  buyer_return_days: z.number().int(),
  /** Buyers see callers' whole numbers (else the last 4 digits). */
  buyer_sees_full_caller: z.boolean(),
  updated_at: IsoDateTime,
});
export type AdminSettings = z.infer<typeof AdminSettings>;

export const UpdateSettings = z
  .object({
    company_name: requiredText('Company name', 120),
    welcome_message: z
      .string({ error: 'Welcome message must be text.' })
      .trim()
      .max(2000, { error: 'Welcome message can be at most 2000 characters.' }),
    support_email: emailField('Support e-mail must be a valid e-mail address.'),
    timezone: TimeZoneName,
    currency: Currency,
    min_payout: moneyInput('Minimum payout'),
    phone_country: PhoneCountry,
    company_address: CompanyAddress,
    payout_holds: z
      .array(PayoutHoldCondition, { error: 'payout_holds must be a list of hold conditions.' })
      .max(payoutHoldConditions.length, { error: 'Each hold condition once.' })
      .refine((v) => new Set(v).size === v.length, { error: 'Each hold condition once.' }),
    buyer_return_days: z
      .number({ error: 'Return window must be a whole number of days.' })
      .int({ error: 'Return window must be a whole number of days.' })
      .min(0, { error: 'Return window cannot be negative.' })
      .max(365, { error: 'Return window can be at most 365 days.' }),
    buyer_sees_full_caller: z.boolean({ error: 'buyer_sees_full_caller must be true or false.' }),
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { error: 'Nothing to change.' });
export type UpdateSettings = z.infer<typeof UpdateSettings>;

/** The logo upload's size limit, enforced on the server. */
export const LOGO_MAX_BYTES = 5 * 1024 * 1024;
