import { z } from 'zod';
import {
  FileLink,
  nonBlankText,
  optionalNote,
  publisherRef,
  requiredField,
  requiredText,
} from './admin-common.ts';
import {
  flagParam,
  hasAtMostTwoDecimals,
  IsoDateTime,
  IsoDay,
  listQuery,
  MAX_MONEY,
  Money,
  moneyInput,
  oneOf,
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
export const Currency = oneOf(currencies, 'Currency');
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
export const PaymentMethod = oneOf(paymentMethods, 'Method');
/** What each method reads as; a bank transfer is a US ACH credit (routing + account number). */
export const PAYMENT_METHOD_LABELS: Record<(typeof paymentMethods)[number], string> = {
  bank_transfer: 'Bank transfer (US, ACH)',
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
export const PayoutHoldCondition = oneOf(payoutHoldConditions, 'A hold condition');
export const PAYOUT_HOLD_LABELS: Record<PayoutHoldCondition, string> = {
  tax_form: 'Tax form not approved',
  payment_details: 'Payment details missing',
  blocked: 'Account not approved (blocked, rejected or pending)',
  under_review: 'Payouts put under review by an admin',
};

/** A publisher's payout holds as the admin sees them (GET /admin/publishers/:id/payout-hold). */
export const PayoutHoldState = z.object({
  /** True when the next run leaves this publisher out (some enabled condition, no release). */
  held: z.boolean(),
  /** The enabled conditions this publisher meets now, with what they read as. */
  reasons: z.array(z.object({ condition: z.enum(payoutHoldConditions), label: z.string() })),
  /** The conditions Settings enables. */
  enabled: z.array(z.enum(payoutHoldConditions)),
  under_review: z.boolean(),
  review_note: z.string().nullable(),
  review_at: IsoDateTime.nullable(),
  /** A release for the next run (used up by the run that pays the publisher). */
  release: z
    .object({ note: z.string(), by_email: z.string().nullable(), at: IsoDateTime })
    .nullable(),
});
export type PayoutHoldState = z.infer<typeof PayoutHoldState>;

const holdNote = z
  .string({ error: 'Write a note.' })
  .trim()
  .max(1000, { error: 'Keep the note under 1,000 characters.' });

/** PUT /admin/publishers/:id/payout-hold: put the payouts under review (with why), or lift it. */
export const SetPayoutReview = z
  .object({
    under_review: z.boolean({ error: 'under_review must be true or false.' }),
    note: holdNote.optional(),
  })
  .refine((v) => !v.under_review || Boolean(v.note), {
    error: 'Say why the payouts are under review: a note is required.',
    path: ['note'],
  });
export type SetPayoutReview = z.infer<typeof SetPayoutReview>;

/** POST /admin/publishers/:id/payout-hold/release: pay in the next run despite the holds. */
export const ReleasePayoutHold = z.object({
  note: holdNote.min(1, { error: 'Say why the hold is released: a note is required.' }),
});
export type ReleasePayoutHold = z.infer<typeof ReleasePayoutHold>;

/** PATCH /admin/publishers/:id/payment-details: only an admin sets a tax form's status. */
export const SetTaxFormStatus = z.object({ tax_form_status: TaxFormStatus });
export type SetTaxFormStatus = z.infer<typeof SetTaxFormStatus>;

/** A publisher's tax form (W-9/W-8 PDF) and its status. */
export const TaxForm = z.object({
  status: z.enum(taxFormStatuses),
  file: FileLink.nullable(),
  uploaded_at: IsoDateTime.nullable(),
  reviewed_at: IsoDateTime.nullable(),
});
export type TaxForm = z.infer<typeof TaxForm>;

// ---------------------------------------------------------------------------
// Balances
// ---------------------------------------------------------------------------

// Word for word on screen and in the docs; zod-free so a first screen can read them.
export { BALANCE_RULES, PAYOUT_STATUS_LABELS } from './money-rules.ts';

export const Balance = z.object({
  /** Approved calls' payouts plus adjustments (bonus, correction, minus clawbacks). */
  earned: Money,
  /** Payouts of calls still pending review: not earned yet, shown apart. */
  pending_review: Money,
  /** Calls still pending review. */
  pending_calls: z.number().int(),
  /** Rejected calls: counted, never in a money total. */
  rejected_calls: z.number().int(),
  /** Earned and not in any run yet: earned − recorded − paid. */
  owed: Money,
  /** In a recorded run, not marked paid yet. */
  recorded: Money,
  /** Marked paid. */
  paid: Money,
  /** owed + recorded: earned and not paid yet (the publisher's Pending Payouts card). */
  unpaid: Money,
  currency: z.string(),
});
export type Balance = z.infer<typeof Balance>;

/** US bank accounts (ACH): the kind of account the routing and account numbers name. */
export const accountTypes = ['checking', 'savings'] as const;
export type AccountType = (typeof accountTypes)[number];
export const ACCOUNT_TYPE_LABELS: Record<AccountType, string> = {
  checking: 'Checking',
  savings: 'Savings',
};

/**
 * True for a 9-digit ABA routing number whose check digit is right: the digits weighted
 * 3, 7, 1, 3, 7, 1, 3, 7, 1 add up to a multiple of 10.
 */
export function isAbaRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const w = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(value[i]) * w[i]!;
  return sum % 10 === 0;
}

/** A simple e-mail check (what PayPal and Wise need: one @, a dot in the domain, no spaces). */
export const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/** A US bank account number as NACHA carries it: 4 to 17 digits. */
export const isUsAccountNumber = (value: string) => /^\d{4,17}$/.test(value);

/**
 * How the network pays a publisher (issue 27): the method, the account (PayPal or Wise e-mail,
 * bank account number, check mailing address, or a reference), the holder's legal name, and
 * for US bank transfers (ACH) the routing number and account type. `method` is null while the
 * publisher has set none (a row may exist for an uploaded tax form alone).
 */
export const PaymentDetails = z.object({
  method: z.enum(paymentMethods).nullable(),
  account: z.string().nullable(),
  holder_name: z.string().nullable(),
  routing_number: z.string().nullable(),
  account_type: z.enum(accountTypes).nullable(),
  tax_form_status: z.enum(taxFormStatuses),
  updated_at: IsoDateTime.nullable(),
});
export type PaymentDetails = z.infer<typeof PaymentDetails>;

/**
 * PUT /publisher/payment-details: the publisher's own method, account and holder name; a bank
 * transfer (US ACH) also needs the routing number and the account type. The tax form status
 * is the network's to set after reviewing the form, never the publisher's.
 */
export const UpdatePaymentDetails = z
  .object({
    method: PaymentMethod,
    account: requiredText('Account or reference', 500),
    holder_name: requiredText("The account holder's name", 200),
    routing_number: z
      .string({ error: 'The routing number must be text of 9 digits.' })
      .trim()
      .nullish(),
    account_type: z
      .enum(accountTypes, { error: 'Account type must be checking or savings.' })
      .nullish(),
    tax_form_status: z
      .never({ error: 'The tax form status is set by the network after reviewing your form.' })
      .optional(),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [path], message });
    if (v.method === 'paypal' && !looksLikeEmail(v.account)) {
      issue('account', 'Enter the e-mail address of your PayPal account, e.g. name@example.com.');
    }
    if (v.method === 'wise' && !looksLikeEmail(v.account)) {
      issue('account', 'Enter the e-mail address of your Wise account, e.g. name@example.com.');
    }
    if (v.method === 'bank_transfer') {
      if (!isUsAccountNumber(v.account)) {
        issue('account', 'Enter the bank account number: 4 to 17 digits, no spaces or dashes.');
      }
      if (!v.routing_number) {
        issue('routing_number', 'The routing number is required for a bank transfer.');
      } else if (!/^\d{9}$/.test(v.routing_number)) {
        issue('routing_number', 'A routing number is 9 digits.');
      } else if (!isAbaRoutingNumber(v.routing_number)) {
        issue(
          'routing_number',
          'This routing number is not valid (its check digit does not match): copy it again from a check or your bank.',
        );
      }
      if (!v.account_type) {
        issue('account_type', 'Choose whether the account is checking or savings.');
      }
    }
  });
export type UpdatePaymentDetails = z.infer<typeof UpdatePaymentDetails>;

export const balanceSorts = ['owed', 'earned', 'paid', 'name'] as const;
export const BalanceListQuery = z.object({
  ...pageQuery(),
  ...sortQuery(balanceSorts, 'owed'),
  q: searchParam,
  /** `true`: only publishers whose owed amount reaches the minimum payout. */
  above_threshold: flagParam('above_threshold').optional(),
});
export type BalanceListQuery = z.infer<typeof BalanceListQuery>;

export const PublisherBalanceRow = Balance.omit({ currency: true }).extend({
  ...publisherRef,
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
  note: nonBlankText(2000, {
    required: 'A note is required.',
    blank: 'Say why: a note is required.',
    tooLong: 'The note can be at most 2000 characters.',
  }),
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
    note: optionalNote(2000),
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
  ...publisherRef,
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
  /** Why this publisher's payout waits (the holds Settings enables), or null. */
  held: z.string().nullable(),
  hold_reasons: z.array(z.enum(payoutHoldConditions)),
  /** The admin's release of the holds for this run, when there is one. */
  released: z.object({ note: z.string(), by_email: z.string().nullable() }).nullable(),
  payment: PaymentDetails,
});
export type RunPreviewItem = z.infer<typeof RunPreviewItem>;
export const RunPreview = z.object({
  items: z.array(RunPreviewItem),
  total: Money,
  payouts: z.number().int(),
  /** Publishers held back, and what they would have been paid. */
  held: z.number().int(),
  held_total: Money,
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
export const RunListQuery = listQuery(['created_at'], 'created_at', {});
export type RunListQuery = z.infer<typeof RunListQuery>;
export const RunList = pageOf(PayoutRun);
export type RunList = z.infer<typeof RunList>;

export const MarkRunPaid = z.object({
  reference: requiredField('reference', 200, 'A payment reference is required.'),
});
export type MarkRunPaid = z.infer<typeof MarkRunPaid>;
export const VoidRun = z.object({
  reason: requiredField('reason', 2000, 'Say why the run is void.'),
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

/**
 * One line of a statement. A call (`lead`) or its take-back (`reversal`) has its day, offer,
 * call id and duration; an adjustment has its day; advances and credits have neither.
 */
export const StatementLine = z.object({
  kind: z.enum(lineKinds),
  /** Day of the network's zone: the call's (calls, reversals) or the adjustment's; else null. */
  day: z.string().nullable(),
  offer: z.string().nullable(),
  /** The lead the line pays or takes back; null for lines without a call. */
  lead_id: z.string().nullable(),
  /** The tracker's call id, else the lead's short id (its last 12 characters); null without a call. */
  call_id: z.string().nullable(),
  /** The call's length in seconds (printed m:ss); null without a call. */
  duration_seconds: z.number().int().nullable(),
  amount: Money,
  description: z.string(),
});
export type StatementLine = z.infer<typeof StatementLine>;

/** The lines of one kind, in print order (calls, reversals, adjustments, advances, credits). */
export const StatementSection = z.object({
  kind: z.enum(lineKinds),
  /** "Calls", "Reversals", … as printed. */
  title: z.string(),
  count: z.number().int(),
  /** The sum of the section's lines, exact to the cent. */
  subtotal: Money,
});
export type StatementSection = z.infer<typeof StatementSection>;

export const Statement = z.object({
  payout_id: z.string(),
  /** `ST-2026-000123`, per publisher and year; null for a payout that was never numbered. */
  number: z.string().nullable(),
  run_id: z.string().nullable(),
  publisher_name: z.string().nullable(),
  publisher_email: z.string(),
  date: IsoDateTime,
  /** The payout's day in the network's zone. */
  issued_on: z.string(),
  status: z.string(),
  reference: z.string().nullable(),
  period_from: z.string().nullable(),
  period_to: z.string().nullable(),
  /** "2026-10-01 to 2026-10-31", or "All unpaid calls up to 2026-11-03" when open-ended. */
  period_label: z.string(),
  /** The network's zone (IANA name): every day of the statement is one of this zone. */
  timezone: z.string(),
  lines: z.array(StatementLine),
  /** The lines' sections with their counts and subtotals; only kinds that have lines. */
  sections: z.array(StatementSection),
  /** The sum of the lines (the payout's amount). */
  total: Money,
  currency: z.string(),
  network: z.object({
    name: z.string(),
    support_email: z.string(),
    /** Postal address, several lines; null when Settings has none. */
    address: z.string().nullable(),
  }),
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
/** A payout as the ledger and its publisher read it (contract/publisher.ts PublisherPayout). */
export const payoutFields = {
  amount: Money,
  notes: z.string().nullable(),
  date: IsoDateTime,
  /** `recorded`, then `paid` once the network confirms the transfer (with its reference). */
  status: z.enum(['recorded', 'paid']),
  reference: z.string().nullable(),
  period_from: z.string().nullable(),
  period_to: z.string().nullable(),
};
export const LedgerPayout = z.object({
  id: z.string(),
  run_id: z.string().nullable(),
  ...payoutFields,
  leads: z.number().int(),
  /** `ST-2026-000123`; null for a payout that was never numbered. */
  statement_number: z.string().nullable(),
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
