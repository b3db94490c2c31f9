import { and, eq, type SQL } from 'drizzle-orm';
import {
  type AdminPayout,
  type CreatePayout,
  CreatePayout as CreatePayoutSchema,
  type PayoutCsvQuery,
  type PayoutList,
  type PayoutListQuery,
} from '../../../contract/admin.ts';
import { statementNumber } from '../../../contract/money.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { keysetCsv } from '../../db/csv.ts';
import type { ListRead } from '../../db/list-query.ts';
import { countRows, dateBounds, deferredPage, keysetOf, listPage } from '../../db/list-query.ts';
import { toMoney } from '../../db/money.ts';
import { publisherRefColumns } from '../../db/refs.ts';
import { apiFields } from '../../db/rows.ts';
import { payouts, users } from '../../db/schema.ts';
import { type AdminWrite, auditTrail } from '../audit/index.ts';
import { createManualPayout } from './runs.service.ts';

const auditPayout = auditTrail('payout');

type PayoutRow = {
  id: string;
  publisherId: string;
  publisherName: string | null;
  publisherEmail: string;
  amount: string;
  notes: string | null;
  date: Date;
  runId: string | null;
  status: 'recorded' | 'paid';
  reference: string | null;
  statementYear: number | null;
  statementSeq: number | null;
};

const payoutColumns = {
  id: payouts.id,
  ...publisherRefColumns(payouts.publisherId),
  amount: payouts.amount,
  notes: payouts.notes,
  date: payouts.date,
  runId: payouts.runId,
  status: payouts.status,
  reference: payouts.reference,
  statementYear: payouts.statementYear,
  statementSeq: payouts.statementSeq,
};

function toAdminPayout(r: PayoutRow): AdminPayout {
  const { amount, statementYear, statementSeq, ...fields } = r;
  return {
    ...apiFields(fields),
    amount: toMoney(amount),
    statement_number: statementNumber(statementYear, statementSeq),
  };
}

function payoutWhere(f: PayoutCsvQuery): SQL | undefined {
  return and(
    f.publisher_id ? eq(payouts.publisherId, f.publisher_id) : undefined,
    f.status ? eq(payouts.status, f.status) : undefined,
    dateBounds(payouts.date, f),
  );
}

const sortColumns = { date: payouts.date, amount: payouts.amount } as const;

const selectPayouts = <Extra extends Record<string, SQL>>(db: DbOrTx, extra = {} as Extra) =>
  db
    .select({ ...payoutColumns, ...extra })
    .from(payouts)
    .innerJoin(users, eq(users.id, payouts.publisherId));

/**
 * Every payout with its publisher, newest first unless sorted otherwise: the page's ids from
 * the (sort, id) index first, then the publisher for those rows only (a deferred join, as the
 * leads list); the total is capped (TOTAL_CAP).
 */
export async function listPayouts(opts: ListRead<PayoutListQuery>): Promise<PayoutList> {
  const { db, query } = opts;
  const cond = payoutWhere(query);
  return listPage({
    query,
    keyset: keysetOf(sortColumns, query, payouts.id),
    rows: (w) =>
      deferredPage(db, selectPayouts(db, { sortKey: w.sortKey }).$dynamic(), payouts.id, cond, w),
    count: () => countRows(db, payouts, cond, 'capped'),
    toItem: toAdminPayout,
  });
}

/**
 * Records a payout dated now, only for an approved (or legacy active) publisher: the spec's
 * form, kept as a run of one (server/modules/money/runs.service.ts `createManualPayout`).
 */
export async function createPayout(opts: AdminWrite<CreatePayout>): Promise<AdminPayout> {
  const input = CreatePayoutSchema.parse(opts.input);
  return opts.db.transaction(async (tx) => {
    const id = await createManualPayout({ db: tx as unknown as Db, actor: opts.actor, input });
    const [created] = await selectPayouts(tx).where(eq(payouts.id, id));
    const payout = toAdminPayout(created!);
    await auditPayout(tx, opts.actor, 'create', payout.id, {
      before: null,
      after: {
        publisher_id: payout.publisher_id,
        amount: payout.amount,
        notes: payout.notes,
        reason: input.reason,
        run_id: payout.run_id,
      },
    });
    return payout;
  });
}

/** The filtered payouts as CSV, in the list's order, read in keyset batches (flat memory). */
export function payoutsCsv(opts: { db: DbOrTx; filter: PayoutCsvQuery }): AsyncGenerator<string> {
  const { db, filter } = opts;
  return keysetCsv({
    header: [
      'id',
      'date',
      'publisher_name',
      'publisher_email',
      'amount',
      'status',
      'reference',
      'notes',
    ],
    keyset: keysetOf(sortColumns, filter, payouts.id),
    select: (sortKey) => selectPayouts(db, { sortKey }).$dynamic(),
    where: payoutWhere(filter),
    line: (r) => [
      r.id,
      r.date.toISOString(),
      r.publisherName,
      r.publisherEmail,
      r.amount,
      r.status,
      r.reference,
      r.notes,
    ],
  });
}
