import { and, eq } from 'drizzle-orm';
import type { AdminStats, DailyStats } from '../../../contract/admin.ts';
import type { AdminRangeStats, DashboardRangeQuery } from '../../../contract/reports.ts';
import type { DbOrTx } from '../../db/client.ts';
import { networkDaily, networkPayoutTotal } from '../../db/lead-totals.ts';
import { countAll } from '../../db/list-query.ts';
import { toMoney } from '../../db/money.ts';
import { dailyFigures, dailyPayouts, dashboardDays, NETWORK_OWNER } from '../../db/reports.ts';
import { offerApplications, users } from '../../db/schema.ts';
import { networkTimeZone } from '../../db/settings.ts';

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

/**
 * The dashboard over a picked range of the network's days: payouts dated in it (the Total
 * Payouts card), and calls and payouts per day (the chart), from the report rollups.
 */
export async function getRangeStats(opts: {
  db: DbOrTx;
  query: DashboardRangeQuery;
  now?: Date;
}): Promise<AdminRangeStats> {
  const tz = await networkTimeZone(opts.db);
  const { from, to } = dashboardDays(tz, opts.query, opts.now);
  const [days, payouts] = await Promise.all([
    dailyFigures(opts.db, { owner: NETWORK_OWNER, from, to }),
    dailyPayouts(opts.db, { tz, from, to }),
  ]);
  let total = 0;
  for (const v of payouts.values()) total += Math.round(v * 100);
  return {
    timezone: tz,
    range: opts.query.range,
    from,
    to,
    total_payouts: total / 100,
    leads: days.reduce((n, d) => n + d.calls, 0),
    days: days.map((d) => ({ date: d.date, leads: d.calls, payouts: payouts.get(d.date) ?? 0 })),
  };
}
