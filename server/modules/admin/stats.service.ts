import { and, eq } from 'drizzle-orm';
import type { AdminStats, DailyStats } from '../../../contract/admin.ts';
import type { DbOrTx } from '../../db/client.ts';
import { networkDaily, networkPayoutTotal } from '../../db/lead-totals.ts';
import { countAll } from '../../db/list-query.ts';
import { toMoney } from '../../db/money.ts';
import { offerApplications, users } from '../../db/schema.ts';

const DAY_MS = 86_400_000;

/** The dashboard cards: two counts and the network's total paid (maintained totals). */
export async function getStats(opts: { db: DbOrTx }): Promise<AdminStats> {
  const { db } = opts;
  const [[pub], [apps], pay] = await Promise.all([
    db
      .select({ n: countAll() })
      .from(users)
      .where(and(eq(users.role, 'publisher'), eq(users.status, 'pending'))),
    db
      .select({ n: countAll() })
      .from(offerApplications)
      .where(eq(offerApplications.status, 'pending')),
    networkPayoutTotal(db),
  ]);
  return {
    pending_publishers: pub?.n ?? 0,
    pending_applications: apps?.n ?? 0,
    total_payouts: toMoney(pay),
  };
}

/**
 * Leads per day and payouts per day for the last `days` UTC days (today included), zeros
 * for quiet days, oldest first. Read from the maintained daily totals (lead_daily_totals,
 * payout_daily_totals), a few rows per day whatever the number of leads.
 */
export async function getDailyStats(opts: { db: DbOrTx; days: number }): Promise<DailyStats> {
  const start = new Date();
  start.setUTCHours(0, 0, 0, 0);
  start.setUTCDate(start.getUTCDate() - (opts.days - 1));
  const dates = Array.from({ length: opts.days }, (_, i) =>
    new Date(start.getTime() + i * DAY_MS).toISOString().slice(0, 10),
  );
  const { leads, payouts } = await networkDaily(opts.db, dates[0]!, dates.at(-1)!);
  return {
    days: dates.map((date) => ({
      date,
      leads: leads.get(date) ?? 0,
      payouts: toMoney(payouts.get(date)),
    })),
  };
}
