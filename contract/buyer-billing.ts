import { z } from 'zod';
import { optionalNote } from './admin-common.ts';
import { IsoDateTime, Money } from './list.ts';
import { billingModes } from './roles.ts';

/**
 * A buyer's billing (issue 31, item 6): prepaid (deposits, drawn by every billed call; at zero
 * the campaigns pause) or postpaid (a monthly invoice, PDF and CSV). Amounts in the network's
 * currency, two decimals.
 */

export const BillingMode = z.enum(billingModes, { error: 'Choose prepaid or postpaid.' });

export const BuyerDeposit = z.object({
  id: z.string(),
  amount: Money,
  note: z.string().nullable(),
  created_at: IsoDateTime,
});
export type BuyerDeposit = z.infer<typeof BuyerDeposit>;

export const BuyerInvoice = z.object({
  id: z.string(),
  /** The invoiced month, `YYYY-MM`. */
  month: z.string(),
  currency: z.string(),
  time_zone: z.string(),
  total: Money,
  created_at: IsoDateTime,
});
export type BuyerInvoice = z.infer<typeof BuyerInvoice>;
export const BuyerInvoiceList = z.object({ items: z.array(BuyerInvoice) });
export type BuyerInvoiceList = z.infer<typeof BuyerInvoiceList>;

/** GET /api/v1/buyer/billing and the admin's view of one buyer's billing. */
export const BuyerBilling = z.object({
  buyer_id: z.string(),
  mode: BillingMode,
  /** Deposits + accepted return credits − billed spend. */
  balance: Money,
  currency: z.string(),
  /** The last 50 deposits, newest first. */
  deposits: z.array(BuyerDeposit),
  /** The last 24 invoices, newest first. */
  invoices: z.array(BuyerInvoice),
});
export type BuyerBilling = z.infer<typeof BuyerBilling>;

export const SetBillingModeBody = z.object({ mode: BillingMode }).strict();
export type SetBillingModeBody = z.infer<typeof SetBillingModeBody>;

export const DepositBody = z
  .object({
    amount: z
      .number({ error: 'Enter the amount of the deposit.' })
      .positive({ error: 'A deposit is more than zero.' })
      .max(10_000_000, { error: 'A deposit is at most 10,000,000.' })
      .multipleOf(0.01, { error: 'Use at most two decimals.' }),
    note: optionalNote(500),
  })
  .strict();
export type DepositBody = z.infer<typeof DepositBody>;

export const GenerateInvoiceBody = z
  .object({
    month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'Use a month as YYYY-MM.' }),
  })
  .strict();
export type GenerateInvoiceBody = z.infer<typeof GenerateInvoiceBody>;

export const BILLING_MESSAGES = {
  notPastMonth: 'Invoice a month that has ended.',
} as const;
