import { z } from 'zod';
import {
  hasAtMostTwoDecimals,
  IsoDateTime,
  IsoDay,
  MAX_MONEY,
  Money,
  moneyInput,
  pageOf,
  pageQuery,
  searchParam,
  sortQuery,
} from './list.ts';

/**
 * The publisher ledger (issue 14): what each publisher earned, was paid and is owed; payout
 * runs; statements; payment details. Money is exact in the database (numeric) and answered as
 * JSON numbers with at most two decimals, like every other amount of the API.
 */

// ---------------------------------------------------------------------------
// Currency
// ---------------------------------------------------------------------------

/** The currencies a network may keep its books in (ISO 4217). */
export const currencies = ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'INR', 'BRL', 'MXN'] as const;
export const Currency = z.enum(currencies, {
  error: `Currency must be one of: ${currencies.join(', ')}.`,
});
export type Currency = z.infer<typeof Currency>;
export const DEFAULT_CURRENCY: Currency = 'USD';
/** The minimum owed amount a publisher must reach to be paid by "all owed above threshold". */
export const DEFAULT_MIN_PAYOUT = 50;

/** `$1,234.50` / `€1,234.50`: an amount with the network currency's symbol and two decimals. */
export function formatCurrency(value: number | string, currency: string = DEFAULT_CURRENCY) {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(Number(value));
}

// ---------------------------------------------------------------------------
// Ledger vocabulary
// ---------------------------------------------------------------------------

/**
 * What a line of a payout pays: an approved lead (`lead`), the take-back of a paid lead that is
 * no longer approved (`reversal`, negative), a manual adjustment (`adjustment`: bonus, clawback,
 * correction), money paid ahead of its leads (`advance`), or the use of such earlier money
 * against the leads of a run (`credit`, negative).
 */
export const lineKinds = ['lead', 'reversal', 'adjustment', 'advance', 'credit'] as const;
export type LineKind = (typeof lineKinds)[number];

export const adjustmentReasons = ['bonus', 'clawback', 'correction'] as const;
export const AdjustmentReason = z.enum(adjustmentReasons, {
  error: 'Reason must be bonus, clawback or correction.',
});
export type AdjustmentReason = z.infer<typeof AdjustmentReason>;

/** A recorded run is owed to the publishers; paid once the bank confirms; void releases it. */
export const runStatuses = ['recorded', 'paid', 'void'] as const;
export type RunStatus = (typeof runStatuses)[number];
export const runKinds = ['run', 'manual'] as const;

export const paymentMethods = ['bank_transfer', 'paypal', 'wise', 'check', 'other'] as const;
export const PaymentMethod = z.enum(paymentMethods, {
  error: `Method must be one of: ${paymentMethods.join(', ')}.`,
});
export const PAYMENT_METHOD_LABELS: Record<(typeof paymentMethods)[number], string> = {
  bank_transfer: 'Bank transfer',
  paypal: 'PayPal',
  wise: 'Wise',
  check: 'Check',
  other: 'Other',
};
export const taxFormStatuses = ['not_submitted', 'submitted', 'approved'] as const;
export const TaxFormStatus = z.enum(taxFormStatuses, {
  error: 'Tax form status must be not_submitted, submitted or approved.',
});
export const TAX_FORM_LABELS: Record<(typeof taxFormStatuses)[number], string> = {
  not_submitted: 'Not submitted',
  submitted: 'Submitted',
  approved: 'Approved',
};

// ---------------------------------------------------------------------------
// Payout holds (issue 27)
// ---------------------------------------------------------------------------

/**
 * The conditions Settings may choose to hold a publisher's payout in a run: the tax form is not
 * approved, no payment details are on file, the account is not approved (blocked, rejected,
 * pending), an admin put the payouts under review.
 */
export const payoutHoldConditions = [
  'tax_form',
  'payment_details',
  'blocked',
  'under_review',
] as const;
export type PayoutHoldCondition = (typeof payoutHoldConditions)[number];
export const PayoutHoldCondition = z.enum(payoutHoldConditions, {
  error: `A hold condition must be one of: ${payoutHoldConditions.join(', ')}.`,
});
export const PAYOUT_HOLD_LABELS: Record<PayoutHoldCondition, string> = {
  tax_form: 'Tax form not approved',
  payment_details: 'Payment details missing',
  blocked: 'Account not approved (blocked, rejected or pending)',
  under_review: 'Payouts put under review by an admin',
};

// ---------------------------------------------------------------------------
// Balances
// ---------------------------------------------------------------------------

/** The rules the cards state, word for word on screen and in the docs. */
export const BALANCE_RULES = {
  earned: 'Payouts of your approved leads, plus bonuses and corrections.',
  owed: 'Earned minus paid: what the network owes you and has not paid yet.',
  paid: 'Every payout recorded for you.',
  pending: 'Payouts of leads still waiting for review; not earned yet.',
} as const;

export const Balance = z.object({
  /** Approved leads' payouts plus adjustments (bonus, correction, minus clawbacks). */
  earned: Money,
  /** Payouts of leads still pending review: not earned yet. */
  pending_review: Money,
  /** Every payout recorded (void runs excluded). */
  paid: Money,
  /** earned − paid. */
  owed: Money,
  currency: z.string(),
});
export type Balance = z.infer<typeof Balance>;

export const PaymentDetails = z.object({
  method: z.enum(paymentMethods).nullable(),
  account: z.string().nullable(),
  tax_form_status: z.enum(taxFormStatuses),
  updated_at: IsoDateTime.nullable(),
});
export type PaymentDetails = z.infer<typeof PaymentDetails>;

export const UpdatePaymentDetails = z.object({
  method: PaymentMethod,
  account: z
    .string({ error: 'Account or reference is required.' })
    .trim()
    .min(1, { error: 'Account or reference is required.' })
    .max(500, { error: 'Account or reference can be at most 500 characters.' }),
  tax_form_status: TaxFormStatus,
});
export type UpdatePaymentDetails = z.infer<typeof UpdatePaymentDetails>;

export const balanceSorts = ['owed', 'earned', 'paid', 'name'] as const;
export const BalanceListQuery = z.object({
  ...pageQuery(),
  ...sortQuery(balanceSorts, 'owed'),
  q: searchParam,
  /** `true`: only publishers whose owed amount reaches the minimum payout. */
  above_threshold: z
    .enum(['true', 'false'], { error: 'above_threshold must be true or false.' })
    .optional(),
});
export type BalanceListQuery = z.infer<typeof BalanceListQuery>;

export const PublisherBalanceRow = Balance.omit({ currency: true }).extend({
  publisher_id: z.string(),
  publisher_name: z.string().nullable(),
  publisher_email: z.string(),
  publisher_status: z.string(),
  payment: PaymentDetails,
});
export type PublisherBalanceRow = z.infer<typeof PublisherBalanceRow>;
export const BalanceList = pageOf(PublisherBalanceRow).extend({
  currency: z.string(),
  min_payout: Money,
});
export type BalanceList = z.infer<typeof BalanceList>;

/** POST /admin/publishers/:id/adjustments: owed now, paid (or deducted) by the next run. */
export const CreateAdjustment = z.object({
  reason: AdjustmentReason,
  amount: z
    .number({ error: 'Amount must be a number, e.g. 25.50.' })
    .refine((v) => v !== 0, { error: 'Amount cannot be 0.' })
    .refine((v) => Math.abs(v) <= MAX_MONEY, { error: 'Amount is too large.' })
    .refine(hasAtMostTwoDecimals, { error: 'Amount can have at most two decimals (cents).' }),
  note: z
    .string({ error: 'A note is required.' })
    .trim()
    .min(1, { error: 'Say why: a note is required.' })
    .max(2000, { error: 'The note can be at most 2000 characters.' }),
});
export type CreateAdjustment = z.infer<typeof CreateAdjustment>;
export const Adjustment = z.object({
  id: z.string(),
  publisher_id: z.string(),
  reason: z.enum(adjustmentReasons),
  amount: Money,
  note: z.string(),
  created_at: IsoDateTime,
  payout_id: z.string().nullable(),
});
export type Adjustment = z.infer<typeof Adjustment>;

// ---------------------------------------------------------------------------
// Payout runs
// ---------------------------------------------------------------------------

/** Which publishers a run pays and which leads' days it covers (days of the network's zone). */
export const RunSelection = z
  .object({
    /** Chosen publishers; omitted with `all_above_threshold`. */
    publisher_ids: z
      .array(z.uuid({ error: 'Each publisher must be an id.' }), {
        error: 'publisher_ids must be a list of publisher ids.',
      })
      .max(10_000, { error: 'At most 10,000 publishers per run.' })
      .optional(),
    /** Every publisher whose owed amount reaches the minimum payout. */
    all_above_threshold: z
      .boolean({ error: 'all_above_threshold must be true or false.' })
      .optional(),
    /** First day of the leads covered; omitted: from the first unpaid lead. */
    period_from: IsoDay.optional(),
    /** Last day of the leads covered (inclusive); omitted: up to now. */
    period_to: IsoDay.optional(),
    note: z
      .string()
      .trim()
      .max(2000, { error: 'The note can be at most 2000 characters.' })
      .optional(),
  })
  .refine((v) => v.all_above_threshold || (v.publisher_ids && v.publisher_ids.length > 0), {
    error: 'Select at least one publisher, or all owed above the threshold.',
    path: ['publisher_ids'],
  })
  .refine((v) => !v.period_from || !v.period_to || v.period_from <= v.period_to, {
    error: 'The start date cannot be after the end date.',
    path: ['period_to'],
  });
export type RunSelection = z.infer<typeof RunSelection>;

export const RunPreviewItem = z.object({
  publisher_id: z.string(),
  publisher_name: z.string().nullable(),
  publisher_email: z.string(),
  leads: z.number().int(),
  leads_amount: Money,
  reversals: z.number().int(),
  reversals_amount: Money,
  adjustments_amount: Money,
  credit_amount: Money,
  total: Money,
  owed: Money,
  /** Why this publisher gets no payout in this run (nothing due, below zero), or null. */
  skipped: z.string().nullable(),
  payment: PaymentDetails,
});
export type RunPreviewItem = z.infer<typeof RunPreviewItem>;
export const RunPreview = z.object({
  items: z.array(RunPreviewItem),
  total: Money,
  payouts: z.number().int(),
  currency: z.string(),
  min_payout: Money,
});
export type RunPreview = z.infer<typeof RunPreview>;

export const PayoutRun = z.object({
  id: z.string(),
  kind: z.enum(runKinds),
  status: z.enum(runStatuses),
  period_from: z.string().nullable(),
  period_to: z.string().nullable(),
  total: Money,
  payouts: z.number().int(),
  reference: z.string().nullable(),
  note: z.string().nullable(),
  created_at: IsoDateTime,
  created_by_email: z.string().nullable(),
  paid_at: IsoDateTime.nullable(),
  voided_at: IsoDateTime.nullable(),
});
export type PayoutRun = z.infer<typeof PayoutRun>;
export const RunListQuery = z.object({
  ...pageQuery(),
  ...sortQuery(['created_at'] as const, 'created_at'),
});
export type RunListQuery = z.infer<typeof RunListQuery>;
export const RunList = pageOf(PayoutRun);
export type RunList = z.infer<typeof RunList>;

export const MarkRunPaid = z.object({
  reference: z
    .string({ error: 'A payment reference is required.' })
    .trim()
    .min(1, { error: 'A payment reference is required.' })
    .max(200, { error: 'The reference can be at most 200 characters.' }),
});
export type MarkRunPaid = z.infer<typeof MarkRunPaid>;
export const VoidRun = z.object({
  reason: z
    .string({ error: 'Say why the run is void.' })
    .trim()
    .min(1, { error: 'Say why the run is void.' })
    .max(2000, { error: 'The reason can be at most 2000 characters.' }),
});
export type VoidRun = z.infer<typeof VoidRun>;

export const IdParams = z.object({ id: z.uuid({ error: 'Not a valid id.' }) });

// ---------------------------------------------------------------------------
// Statements and covered leads
// ---------------------------------------------------------------------------

/** A statement's number as printed: `ST-2026-000123` (per publisher and year); null before runs. */
export function statementNumber(year: number | null, seq: number | null): string | null {
  if (year === null || seq === null) return null;
  return `ST-${year}-${String(seq).padStart(6, '0')}`;
}

export const StatementLine = z.object({
  kind: z.enum(lineKinds),
  /** Day of the network's zone (leads and reversals), else null. */
  day: z.string().nullable(),
  offer: z.string().nullable(),
  leads: z.number().int(),
  amount: Money,
  description: z.string(),
});
export type StatementLine = z.infer<typeof StatementLine>;
export const Statement = z.object({
  payout_id: z.string(),
  run_id: z.string().nullable(),
  publisher_name: z.string().nullable(),
  publisher_email: z.string(),
  date: IsoDateTime,
  status: z.string(),
  reference: z.string().nullable(),
  period_from: z.string().nullable(),
  period_to: z.string().nullable(),
  lines: z.array(StatementLine),
  total: Money,
  currency: z.string(),
  network: z.object({ name: z.string(), support_email: z.string() }),
});
export type Statement = z.infer<typeof Statement>;

export const CoveredLead = z.object({
  id: z.string(),
  timestamp: IsoDateTime,
  offer_title: z.string(),
  kind: z.enum(['lead', 'reversal']),
  amount: Money,
  status: z.string(),
});
export type CoveredLead = z.infer<typeof CoveredLead>;
export const CoveredLeadsQuery = z.object({ ...pageQuery() });
export const CoveredLeadList = pageOf(CoveredLead);
export type CoveredLeadList = z.infer<typeof CoveredLeadList>;

/** A payout with what the ledger knows of it (both sides). */
export const LedgerPayout = z.object({
  id: z.string(),
  run_id: z.string().nullable(),
  amount: Money,
  notes: z.string().nullable(),
  date: IsoDateTime,
  status: z.enum(['recorded', 'paid']),
  reference: z.string().nullable(),
  period_from: z.string().nullable(),
  period_to: z.string().nullable(),
  leads: z.number().int(),
});
export type LedgerPayout = z.infer<typeof LedgerPayout>;

/** The publisher's Payouts screen header: the balance and the payment details on file. */
export const PublisherMoney = z.object({
  balance: Balance,
  payment: PaymentDetails,
  min_payout: Money,
});
export type PublisherMoney = z.infer<typeof PublisherMoney>;

export { Money, moneyInput };
