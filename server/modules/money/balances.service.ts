import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { BalanceList, BalanceListQuery } from '../../../contract/money.ts';
import type { DbOrTx } from '../../db/client.ts';
import { exactCount, keysetOf, listPage, searchAny } from '../../db/list-query.ts';
import { toMoney } from '../../db/money.ts';
import { publisherBalances, users } from '../../db/schema.ts';
import { cents, centsMoney, ledgerSettings, pendingReviewOf } from './ledger.service.ts';
import { paymentDetailsOf, toPaymentDetails } from './payment-details.service.ts';

const sortColumns = {
  owed: publisherBalances.owed,
  earned: sql`(${publisherBalances.earned} + ${publisherBalances.adjustments})`,
  paid: publisherBalances.paid,
  name: sql`lower(coalesce(${users.name}, ${users.email}))`,
};

/**
 * Admin → Payouts → Balances: every publisher with a balance row, largest owed first, paged by
 * keyset over the maintained `publisher_balances` (owed has its own index); the publishers are
 * counted exactly (one row per publisher: a small table).
 */
export async function listBalances(opts: {
  db: DbOrTx;
  query: BalanceListQuery;
}): Promise<BalanceList> {
  const { db, query } = opts;
  const settings = await ledgerSettings(db);
  const cond: SQL | undefined = and(
    eq(users.role, 'publisher'),
    sql`(${publisherBalances.owed} <> 0 or ${publisherBalances.paid} <> 0 or ${publisherBalances.earned} <> 0)`,
    query.above_threshold === 'true'
      ? and(
          sql`${publisherBalances.owed} > 0`,
          sql`${publisherBalances.owed} >= ${settings.minPayout}::numeric`,
        )
      : undefined,
    searchAny(query.q, users.name, users.email),
  );
  const page = await listPage({
    query,
    keyset: keysetOf(sortColumns, query, publisherBalances.publisherId),
    rows: (w) =>
      db
        .select({
          id: publisherBalances.publisherId,
          earned: publisherBalances.earned,
          adjustments: publisherBalances.adjustments,
          paid: publisherBalances.paid,
          owed: publisherBalances.owed,
          name: users.name,
          email: users.email,
          status: users.status,
          sortKey: w.sortKey,
        })
        .from(publisherBalances)
        .innerJoin(users, eq(users.id, publisherBalances.publisherId))
        .where(and(cond, w.after))
        .orderBy(...w.orderBy)
        .limit(w.limit)
        .offset(w.offset),
    count: () =>
      exactCount(
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(publisherBalances)
          .innerJoin(users, eq(users.id, publisherBalances.publisherId))
          .where(cond),
      ),
    toItem: (r) => r,
  });
  const ids = page.items.map((r) => r.id);
  const [pending, payment] = await Promise.all([
    pendingReviewOf(db, ids),
    paymentDetailsOf(db, ids),
  ]);
  return {
    ...page,
    items: page.items.map((r) => ({
      publisher_id: r.id,
      publisher_name: r.name,
      publisher_email: r.email,
      publisher_status: r.status,
      earned: centsMoney(cents(r.earned) + cents(r.adjustments)),
      pending_review: toMoney(pending.get(r.id) ?? '0'),
      paid: toMoney(r.paid),
      owed: toMoney(r.owed),
      payment: payment.get(r.id) ?? toPaymentDetails(null),
    })),
    currency: settings.currency,
    min_payout: toMoney(settings.minPayout),
  };
}
