import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Balance, BalanceList, BalanceListQuery } from '../../../contract/money.ts';
import type { ListRead } from '../../db/list-query.ts';
import { exactCount, keysetOf, listPage, pageOf, searchAny } from '../../db/list-query.ts';
import { toMoney } from '../../db/money.ts';
import { publisherBalances, users } from '../../db/schema.ts';
import { balancesOf } from './figures.ts';
import { ledgerSettings } from './ledger.service.ts';
import { paymentDetailsOf, toPaymentDetails } from './payment-details.service.ts';

const omitCurrency = ({ currency: _c, ...rest }: Balance) => rest;

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
export async function listBalances(opts: ListRead<BalanceListQuery>): Promise<BalanceList> {
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
      pageOf(
        db
          .select({
            id: publisherBalances.publisherId,
            publisherId: publisherBalances.publisherId,
            earned: publisherBalances.earned,
            adjustments: publisherBalances.adjustments,
            recorded: publisherBalances.recorded,
            paid: publisherBalances.paid,
            name: users.name,
            email: users.email,
            status: users.status,
            sortKey: w.sortKey,
          })
          .from(publisherBalances)
          .innerJoin(users, eq(users.id, publisherBalances.publisherId))
          .$dynamic(),
        cond,
        w,
      ),
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
  const ids = page.items.map((r) => r.publisherId);
  const [balances, payment] = await Promise.all([
    balancesOf(db, page.items, settings.currency),
    paymentDetailsOf(db, ids),
  ]);
  return {
    ...page,
    items: page.items.map((r) => ({
      ...omitCurrency(balances.get(r.publisherId)!),
      publisher_id: r.publisherId,
      publisher_name: r.name,
      publisher_email: r.email,
      publisher_status: r.status,
      payment: payment.get(r.publisherId) ?? toPaymentDetails(null),
    })),
    currency: settings.currency,
    min_payout: toMoney(settings.minPayout),
  };
}
