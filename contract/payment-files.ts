import { z } from 'zod';
import { publisherRef } from './admin-common.ts';
import { flagParam, IsoDay, Money, oneOf } from './list.ts';
import { IdParams, isAbaRoutingNumber, paymentMethods } from './money.ts';

/**
 * Payment files of a payout run (issue 27): one file per processor, in the processor's own
 * import format, plus the generic CSV of every payout. See server/modules/money/payment-files/
 * README.md for each format and its specification.
 */

export const paymentFileFormats = ['paypal', 'wise', 'nacha', 'csv'] as const;
export type PaymentFileFormat = (typeof paymentFileFormats)[number];

/** What each file reads as on screen. */
export const PAYMENT_FILE_LABELS: Record<PaymentFileFormat, string> = {
  paypal: 'PayPal Payouts (CSV)',
  wise: 'Wise batch payment (CSV)',
  nacha: 'NACHA ACH file (US bank transfers)',
  csv: 'Generic CSV (every payout)',
};

export const PaymentFileParams = IdParams.extend({
  format: oneOf(paymentFileFormats, 'The file format'),
});
export type PaymentFileParams = z.infer<typeof PaymentFileParams>;

/** Missing: "… is required."; anything else but text: "… must be text." */
const textError =
  (label: string, what = 'text') =>
  (iss: { input?: unknown }) =>
    iss.input === undefined ? `${label} is required.` : `${label} must be ${what}.`;

const alnum = (label: string, max: number) =>
  z
    .string({ error: textError(label) })
    .trim()
    .regex(/^[A-Za-z0-9]+$/, { error: `${label} may hold letters and digits only.` })
    .max(max, { error: `${label} can be at most ${max} characters.` });

const text = (label: string, max: number) =>
  z
    .string({ error: textError(label) })
    .trim()
    .max(max, { error: `${label} can be at most ${max} characters.` });

const routing = (label: string) =>
  z
    .string({ error: textError(label, 'a 9-digit routing number') })
    .trim()
    .regex(/^\d{9}$/, { error: `${label} must be a 9-digit routing number.` })
    .refine(isAbaRoutingNumber, {
      error: `${label} is not a valid routing number (its check digit does not match).`,
    });

/**
 * What a NACHA file needs from the network, as the bank that sends it (the ODFI) gave them:
 * the network keeps no such settings, so the admin passes them with each download (the web
 * form remembers them in the browser).
 */
export const NachaSettings = z.object({
  /** The originating bank's (ODFI) routing number; its first 8 digits start every trace number. */
  odfi: routing('The ODFI routing number'),
  /** The network's company identification at that bank (often "1" followed by the EIN). */
  company_id: alnum('The company ID', 10).min(1, { error: 'The company ID is required.' }),
  /** Printed on the publishers' bank statements; default: the network's name (16 characters). */
  company_name: text('The company name', 16).optional(),
  /** Where the file goes (the bank's routing number); default: the ODFI. */
  immediate_destination: routing('The immediate destination').optional(),
  immediate_destination_name: text('The destination name', 23).optional(),
  /** Who sends the file (10 positions); default: the company ID. */
  immediate_origin: alnum('The immediate origin', 10).optional(),
  immediate_origin_name: text('The origin name', 23).optional(),
  /** The day the publishers should get the money; default: the next weekday. */
  effective_date: IsoDay.optional(),
  /** Printed on the publishers' bank statements (10 characters); default: PAYOUT. */
  entry_description: text('The entry description', 10).optional(),
  /** A–Z or 0–9: tells apart files sent to the bank on the same day; default: A. */
  file_id_modifier: z
    .string()
    .regex(/^[A-Za-z0-9]$/, { error: 'The file ID modifier is one letter or digit.' })
    .optional(),
});
export type NachaSettings = z.infer<typeof NachaSettings>;

/**
 * GET /admin/payout-runs/:id/files/:format. A payout whose payment details miss what the file
 * needs makes the download answer 409 naming the publishers; `skip_incomplete=true` gives the
 * file without them (named in the X-Left-Out header) so they can be paid another way.
 */
export const PaymentFileQuery = NachaSettings.partial().extend({
  skip_incomplete: flagParam('skip_incomplete').optional(),
});
export type PaymentFileQuery = z.infer<typeof PaymentFileQuery>;

/** A payout that a processor's file cannot carry, and why (in the admin's words). */
export const LeftOutPayout = z.object({
  payout_id: z.string(),
  ...publisherRef,
  amount: Money,
  reason: z.string(),
});
export type LeftOutPayout = z.infer<typeof LeftOutPayout>;

export const PaymentFileSummary = z.object({
  format: z.enum(paymentFileFormats),
  label: z.string(),
  /** The method whose payouts the file carries; null for the generic CSV (all of them). */
  method: z.enum(paymentMethods).nullable(),
  file_name: z.string(),
  /** Payouts in the file, and their total. */
  count: z.number().int(),
  total: Money,
  /** Payouts of this method the file cannot carry: their details miss something. */
  left_out: z.array(LeftOutPayout),
  /** The processor's specification of the format. */
  spec_url: z.string().nullable(),
});
export type PaymentFileSummary = z.infer<typeof PaymentFileSummary>;

/** GET /admin/payout-runs/:id/files: the run's payouts per method, and the files it has. */
export const PaymentFileList = z.object({
  run_id: z.string(),
  currency: z.string(),
  count: z.number().int(),
  total: Money,
  /** Per payment method (null: the publisher has set none), with count and total. */
  methods: z.array(
    z.object({
      method: z.enum(paymentMethods).nullable(),
      label: z.string(),
      count: z.number().int(),
      total: Money,
    }),
  ),
  /** The generic CSV always; a processor's file when the run has payouts of its method. */
  files: z.array(PaymentFileSummary),
});
export type PaymentFileList = z.infer<typeof PaymentFileList>;
