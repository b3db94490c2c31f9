import { z } from 'zod';
import { publisherPick, publisherRef, uuidParam } from './admin-common.ts';
import {
  dateRangeQuery,
  fromNotAfterTo,
  IsoDateTime,
  Money,
  moneyInput,
  pageOf,
  pageQuery,
  sortQuery,
} from './list.ts';

/** The spec's payouts list and form (the ledger is contract/money.ts). */
// ---------------------------------------------------------------------------
// Payouts
// ---------------------------------------------------------------------------

/** The payouts list's filters and sort; the list pages them, the CSV export takes them all. */
const payoutFilter = {
  publisher_id: uuidParam('publisher').optional(),
  /** `recorded`: in a run, not yet paid; `paid`: marked paid. */
  status: z.enum(['recorded', 'paid'], { error: 'Status must be recorded or paid.' }).optional(),
  ...dateRangeQuery,
  ...sortQuery(['date', 'amount'] as const, 'date'),
};
export const PayoutListQuery = fromNotAfterTo(z.object({ ...pageQuery(), ...payoutFilter }));
export type PayoutListQuery = z.infer<typeof PayoutListQuery>;
/** GET /admin/payouts.csv: the list's filters and sort, without paging. */
export const PayoutCsvQuery = fromNotAfterTo(z.object(payoutFilter));
export type PayoutCsvQuery = z.infer<typeof PayoutCsvQuery>;

export const AdminPayout = z.object({
  id: z.string(),
  ...publisherRef,
  amount: Money,
  notes: z.string().nullable(),
  date: IsoDateTime,
  /** The payout run that created it; null for payouts recorded before runs existed. */
  run_id: z.string().nullable(),
  status: z.enum(['recorded', 'paid']),
  reference: z.string().nullable(),
  /** `ST-2026-000123` (contract/money.ts statementNumber); null for a payout never numbered. */
  statement_number: z.string().nullable(),
});
export type AdminPayout = z.infer<typeof AdminPayout>;
export const PayoutList = pageOf(AdminPayout);
export type PayoutList = z.infer<typeof PayoutList>;

/** POST /admin/payouts: dated now, only for approved publishers. */
export const CreatePayout = z.object({
  ...publisherPick,
  /**
   * What the money is (issue 14): `advance` (default) pays ahead of the publisher's leads and is
   * deducted from the next run; `bonus` and `correction` add to the earnings and pay them.
   */
  reason: z
    .enum(['advance', 'bonus', 'correction'], {
      error: 'Reason must be advance, bonus or correction.',
    })
    .default('advance'),
  amount: moneyInput('Amount', { positive: true }),
  notes: z
    .string()
    .trim()
    .max(2000, { error: 'Notes can be at most 2000 characters.' })
    .nullable()
    .optional(),
});
export type CreatePayout = z.input<typeof CreatePayout>;
