import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type {
  AdminPayout,
  CreatePayout,
  PayoutCsvQuery,
  PayoutList,
  PayoutListQuery,
} from '../../../contract/admin.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { keysetCsv } from '../../db/csv.ts';
import { cappedCount, dateBounds, keysetOf, listPage } from '../../db/list-query.ts';
import { fromMoney, toMoney } from '../../db/money.ts';
import { payouts, users } from '../../db/schema.ts';
import { AppError, conflict } from '../../errors.ts';
import { type Actor, writeAudit } from './audit.service.ts';
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

function payoutWhere(f: PayoutCsvQuery): SQL | undefined {
  return and(
    f.publisher_id ? eq(payouts.publisherId, f.publisher_id) : undefined,
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
export async function listPayouts(opts: {
  db: DbOrTx;
  query: PayoutListQuery;
}): Promise<PayoutList> {
  const { db, query } = opts;
  const cond = payoutWhere(query);
  return listPage({
    query,
    keyset: keysetOf(sortColumns, query, payouts.id),
    rows: (w) =>
      selectPayouts(db, { sortKey: w.sortKey })
        .where(
          inArray(
            payouts.id,
            db
              .select({ id: payouts.id })
              .from(payouts)
              .where(and(cond, w.after))
              .orderBy(...w.orderBy)
              .limit(w.limit)
              .offset(w.offset),
          ),
        )
        .orderBy(...w.orderBy),
    count: () => cappedCount(db, db.select({ one: sql`1` }).from(payouts).where(cond)),
    toItem: toAdminPayout,
  });
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

/** The filtered payouts as CSV, in the list's order, read in keyset batches (flat memory). */
export function payoutsCsv(opts: { db: DbOrTx; filter: PayoutCsvQuery }): AsyncGenerator<string> {
  const { db, filter } = opts;
  return keysetCsv({
    header: ['id', 'date', 'publisher_name', 'publisher_email', 'amount', 'notes'],
    keyset: keysetOf(sortColumns, filter, payouts.id),
    read: ({ sortKey, after, orderBy, limit }) =>
      selectPayouts(db, { sortKey })
        .where(and(payoutWhere(filter), after))
        .orderBy(...orderBy)
        .limit(limit),
    line: (r) => [r.id, r.date.toISOString(), r.publisherName, r.publisherEmail, r.amount, r.notes],
  });
}
