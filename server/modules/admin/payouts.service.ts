import { and, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type {
  AdminPayout,
  CreatePayout,
  PayoutList,
  PayoutListQuery,
} from '../../../contract/admin.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { countAll, fromBound, orderBy, pageWindow, toBoundExclusive } from '../../db/list-query.ts';
import { fromMoney, toMoney } from '../../db/money.ts';
import { payouts, users } from '../../db/schema.ts';
import { AppError, conflict } from '../../errors.ts';
import { type Actor, writeAudit } from './audit.service.ts';
import { csvLine } from './csv.helpers.ts';
import { CSV_BATCH } from './leads.service.ts';
import { canReceivePayout } from './users.policy.ts';

type PayoutRow = {
  id: string;
  publisherId: string;
  publisherName: string | null;
  publisherEmail: string;
  amount: string;
  notes: string | null;
  date: Date;
};

const payoutColumns = {
  id: payouts.id,
  publisherId: payouts.publisherId,
  publisherName: users.name,
  publisherEmail: users.email,
  amount: payouts.amount,
  notes: payouts.notes,
  date: payouts.date,
};

function toAdminPayout(r: PayoutRow): AdminPayout {
  return {
    id: r.id,
    publisher_id: r.publisherId,
    publisher_name: r.publisherName,
    publisher_email: r.publisherEmail,
    amount: toMoney(r.amount),
    notes: r.notes,
    date: r.date.toISOString(),
  };
}

export type PayoutFilter = Omit<PayoutListQuery, 'page' | 'page_size'>;

function payoutWhere(f: PayoutFilter): SQL | undefined {
  return and(
    f.publisher_id ? eq(payouts.publisherId, f.publisher_id) : undefined,
    f.from ? gte(payouts.date, fromBound(f.from)) : undefined,
    f.to ? lt(payouts.date, toBoundExclusive(f.to)) : undefined,
  );
}

const sortColumns = { date: payouts.date, amount: payouts.amount } as const;

const selectPayouts = (db: DbOrTx) =>
  db.select(payoutColumns).from(payouts).innerJoin(users, eq(users.id, payouts.publisherId));

/** Every payout with its publisher, newest first unless sorted otherwise. */
export async function listPayouts(opts: {
  db: DbOrTx;
  query: PayoutListQuery;
}): Promise<PayoutList> {
  const { db, query } = opts;
  const cond = payoutWhere(query);
  const { limit, offset } = pageWindow(query);
  const [rows, [count]] = await Promise.all([
    selectPayouts(db)
      .where(cond)
      .orderBy(...orderBy(sortColumns[query.sort], query.order, payouts.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: countAll() }).from(payouts).where(cond),
  ]);
  return {
    items: rows.map(toAdminPayout),
    total: count?.n ?? 0,
    page: query.page,
    page_size: query.page_size,
  };
}

/** Records a payout dated now, only for an approved (or legacy active) publisher. */
export async function createPayout(opts: {
  db: Db;
  actor: Actor;
  input: CreatePayout;
}): Promise<AdminPayout> {
  const { input } = opts;
  return opts.db.transaction(async (tx) => {
    const [publisher] = await tx
      .select({ id: users.id, status: users.status })
      .from(users)
      .where(and(eq(users.id, input.publisher_id), eq(users.role, 'publisher')));
    if (!publisher) {
      throw new AppError('validation_failed', 'The selected publisher does not exist.', {
        details: { publisher_id: ['The selected publisher does not exist.'] },
      });
    }
    if (!canReceivePayout(publisher.status)) {
      throw conflict(
        `Payouts can only be recorded for approved publishers; this publisher is ${publisher.status}.`,
      );
    }
    const notes = input.notes?.trim() ? input.notes.trim() : null;
    const [row] = await tx
      .insert(payouts)
      .values({
        publisherId: publisher.id,
        amount: fromMoney(input.amount),
        notes,
        createdBy: opts.actor.id,
      })
      .returning({ id: payouts.id });
    const [created] = await selectPayouts(tx).where(eq(payouts.id, row!.id));
    const payout = toAdminPayout(created!);
    await writeAudit(tx, {
      actor: opts.actor,
      action: 'payout.create',
      entityType: 'payout',
      entityId: payout.id,
      before: null,
      after: { publisher_id: payout.publisher_id, amount: payout.amount, notes: payout.notes },
    });
    return payout;
  });
}

const sortCast = { date: sql`timestamptz`, amount: sql`numeric` };

/** Rows after the cursor in the list's order; the key is compared in its exact text form. */
function afterCursor(f: PayoutFilter, key: string, id: string): SQL {
  const op = f.order === 'asc' ? sql`>` : sql`<`;
  return sql`(${sortColumns[f.sort]}, ${payouts.id}) ${op} (${key}::${sortCast[f.sort]}, ${id}::uuid)`;
}

/** The filtered payouts as CSV lines, read in keyset batches (flat memory). */
export async function* payoutsCsv(opts: {
  db: DbOrTx;
  filter: PayoutFilter;
}): AsyncGenerator<string> {
  const { db, filter } = opts;
  yield csvLine(['id', 'date', 'publisher_name', 'publisher_email', 'amount', 'notes']);
  const base = payoutWhere(filter);
  // Timestamps carry microseconds that a JS Date would lose: the cursor keeps the text form.
  const sortKey = sql<string>`(${sortColumns[filter.sort]})::text`;
  let last: { key: string; id: string } | undefined;
  for (;;) {
    const rows = await db
      .select({ ...payoutColumns, sortKey })
      .from(payouts)
      .innerJoin(users, eq(users.id, payouts.publisherId))
      .where(last ? and(base, afterCursor(filter, last.key, last.id)) : base)
      .orderBy(...orderBy(sortColumns[filter.sort], filter.order, payouts.id))
      .limit(CSV_BATCH);
    if (rows.length === 0) return;
    yield rows
      .map((r) =>
        csvLine([r.id, r.date.toISOString(), r.publisherName, r.publisherEmail, r.amount, r.notes]),
      )
      .join('');
    if (rows.length < CSV_BATCH) return;
    const tail = rows[rows.length - 1]!;
    last = { key: tail.sortKey, id: tail.id };
  }
}
