import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Balance } from '../../../contract/money.ts';
import { type DbOrTx, rowsOf } from '../../db/client.ts';
import { cents, centsMoney } from '../../db/money.ts';
import {
  leadDailyTotals,
  leadTotals,
  networkBalanceParts,
  publisherBalances,
} from '../../db/schema.ts';
import { ledgerSettings } from './ledger.service.ts';

/**
 * The one definition of every money figure (issue 27, contract `BALANCE_RULES`). The admin
 * dashboard, the admin publisher page, Balances, the publisher's overview and payouts read
 * their figures here, from maintained rows only (publisher_balances, lead_totals,
 * lead_daily_totals): no lead is read, whatever the network's size.
 *
 * - earned: approved calls' payouts + adjustments (publisher_balances.earned + adjustments)
 * - pending review: payouts of calls with status pending, shown apart, never in earned
 * - rejected: a count of calls; never in any money total
 * - owed: earned − recorded − paid (not in a run yet)
 * - recorded: payouts of recorded runs (in a run, not marked paid)
 * - paid: payouts marked paid
 * - unpaid: owed + recorded
 */

/** The stored row a balance is read from (all numeric texts). */
export type BalanceRow = {
  earned: string;
  adjustments: string;
  recorded: string;
  paid: string;
};

/** Calls under review and rejected, per publisher (`pending`/`rejected` lead totals). */
export type CallCounts = { pendingPayout: bigint; pendingCalls: number; rejectedCalls: number };

const NO_CALLS: CallCounts = { pendingPayout: 0n, pendingCalls: 0, rejectedCalls: 0 };

/** A balance from its stored row and its call counts; exact in cents, answered as Money. */
export function balanceFrom(
  row: BalanceRow | null | undefined,
  calls: CallCounts,
  currency: string,
): Balance {
  const earned = cents(row?.earned) + cents(row?.adjustments);
  const recorded = cents(row?.recorded);
  const paid = cents(row?.paid);
  const owed = earned - recorded - paid;
  return {
    earned: centsMoney(earned),
    pending_review: centsMoney(calls.pendingPayout),
    pending_calls: calls.pendingCalls,
    rejected_calls: calls.rejectedCalls,
    owed: centsMoney(owed),
    recorded: centsMoney(recorded),
    paid: centsMoney(paid),
    unpaid: centsMoney(owed + recorded),
    currency,
  };
}

/**
 * Pending and rejected calls of these publishers (or the whole network with `null`), from the
 * maintained lead totals: a few rows per publisher.
 */
async function callCountsOf(
  db: DbOrTx,
  publisherIds: string[] | null,
): Promise<Map<string | null, CallCounts>> {
  const out = new Map<string | null, CallCounts>();
  if (publisherIds && !publisherIds.length) return out;
  // The network's figures come from the per-day totals (a few rows a day: ~1k for a year)
  // rather than lead_totals (a few rows per publisher: 17k at 10k publishers, ~20 ms at 1M
  // leads); both are kept by the same trigger from the same leads.
  const t = publisherIds ? leadTotals : leadDailyTotals;
  const rows = await db
    .select({
      id: publisherIds ? leadTotals.publisherId : sql<null>`null`,
      status: t.status,
      leads: sql<string>`coalesce(sum(${t.leads}), 0)::text`,
      payout: sql<string>`coalesce(sum(${t.payout}), 0)::text`,
    })
    .from(t)
    .where(
      and(
        inArray(t.status, ['pending', 'rejected']),
        publisherIds ? inArray(leadTotals.publisherId, publisherIds) : undefined,
      ),
    )
    .groupBy(...(publisherIds ? [leadTotals.publisherId, leadTotals.status] : [t.status]));
  for (const r of rows) {
    const c = out.get(r.id) ?? { ...NO_CALLS };
    if (r.status === 'pending') {
      c.pendingPayout = cents(r.payout);
      c.pendingCalls = Number(r.leads);
    } else {
      c.rejectedCalls = Number(r.leads);
    }
    out.set(r.id, c);
  }
  return out;
}

/** The balances of several publishers, for rows already read from publisher_balances. */
export async function balancesOf(
  db: DbOrTx,
  rows: (BalanceRow & { publisherId: string })[],
  currency: string,
): Promise<Map<string, Balance>> {
  const calls = await callCountsOf(
    db,
    rows.map((r) => r.publisherId),
  );
  return new Map(
    rows.map((r) => [
      r.publisherId,
      balanceFrom(r, calls.get(r.publisherId) ?? NO_CALLS, currency),
    ]),
  );
}

/** One publisher's balance. */
export async function balanceOf(db: DbOrTx, publisherId: string): Promise<Balance> {
  const [rows, calls, settings] = await Promise.all([
    db.select().from(publisherBalances).where(eq(publisherBalances.publisherId, publisherId)),
    callCountsOf(db, [publisherId]),
    ledgerSettings(db),
  ]);
  return balanceFrom(rows[0], calls.get(publisherId) ?? NO_CALLS, settings.currency);
}

/**
 * The whole network's balance: the sum of every publisher's, read from the parts kept beside
 * publisher_balances (network_balance_parts, drizzle/0056): a few rows whatever the number of
 * publishers, folded into one by `foldNetworkBalance`.
 */
export async function networkBalance(db: DbOrTx): Promise<Balance> {
  const [[row], calls, settings] = await Promise.all([
    db
      .select({
        earned: sql<string>`coalesce(sum(${networkBalanceParts.earned}), 0)::text`,
        adjustments: sql<string>`coalesce(sum(${networkBalanceParts.adjustments}), 0)::text`,
        recorded: sql<string>`coalesce(sum(${networkBalanceParts.recorded}), 0)::text`,
        paid: sql<string>`coalesce(sum(${networkBalanceParts.paid}), 0)::text`,
      })
      .from(networkBalanceParts),
    callCountsOf(db, null),
    ledgerSettings(db),
  ]);
  return balanceFrom(row, calls.get(null) ?? NO_CALLS, settings.currency);
}

/**
 * Folds the network balance's parts into one row (the `network-balance-fold` job), in one
 * statement: a reader sees the parts before or after it, never both. Parts appended while it
 * runs are not in its snapshot and stay for the next fold. Returns how many parts it folded.
 */
export async function foldNetworkBalance(db: DbOrTx): Promise<number> {
  const [row] = await rowsOf<{ folded: number }>(
    db,
    sql`with gone as (
          delete from network_balance_parts
          where (select count(*) from network_balance_parts) > 1
          returning earned, adjustments, recorded, paid
        ), kept as (
          insert into network_balance_parts (earned, adjustments, recorded, paid)
          select sum(earned), sum(adjustments), sum(recorded), sum(paid) from gone
          having count(*) > 0
        )
        select count(*)::int as folded from gone`,
  );
  return row?.folded ?? 0;
}
