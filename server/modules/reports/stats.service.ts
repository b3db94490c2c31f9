import { and, eq, sql } from 'drizzle-orm';
import type { AdminStats, DailyStats } from '../../../contract/admin.ts';
import {
  type AdminRangeStats,
  addDays,
  type DashboardRangeQuery,
  dayIn,
} from '../../../contract/reports.ts';
import type { DbOrTx } from '../../db/client.ts';
import { rowsOf } from '../../db/client.ts';
import { countAll, type ListRead } from '../../db/list-query.ts';
import { cents, centsMoney } from '../../db/money.ts';
import { offerApplications, payoutDayTotals, users } from '../../db/schema.ts';
import { networkTimeZone } from '../../db/settings.ts';
import { networkBalance } from '../money/index.ts';
import { dailyFigures, dailyPayouts, dashboardDays } from './dashboard.queries.ts';
import { NETWORK_OWNER } from './reports.queries.ts';

const _DAY_MS = 86_400_000;

/**
 * The dashboard cards: two counts and the network's money figures (money/figures.ts): Total
 * Payouts is what was marked paid; what sits in recorded runs is shown apart.
 */
export async function getStats(opts: { db: DbOrTx }): Promise<AdminStats> {
  const { db } = opts;
  const [[pub], [apps], balance] = await Promise.all([
    db
      .select({ n: countAll() })
      .from(users)
      .where(and(eq(users.role, 'publisher'), eq(users.status, 'pending'))),
    db
      .select({ n: countAll() })
      .from(offerApplications)
      .where(eq(offerApplications.status, 'pending')),
    networkBalance(db),
  ]);
  return {
    pending_publishers: pub?.n ?? 0,
    pending_applications: apps?.n ?? 0,
    total_payouts: balance.paid,
    balance,
  };
}

/**
 * Calls per day and payouts per day for the last `days` days of the network's time zone (today
 * included), zeros for quiet days, oldest first: the same zone-day rollups as the dashboard over
 * a picked range (report_day_totals, payout_day_totals), so the chart keeps its days whether a
 * range is picked or not.
 */
export async function getDailyStats(opts: {
  db: DbOrTx;
  days: number;
  now?: Date;
}): Promise<DailyStats> {
  const tz = await networkTimeZone(opts.db);
  const to = dayIn(tz, opts.now ?? new Date());
  const from = addDays(to, -(opts.days - 1));
  const [days, payouts] = await Promise.all([
    dailyFigures(opts.db, { owner: NETWORK_OWNER, from, to }),
    dailyPayouts(opts.db, { tz, from, to }),
  ]);
  return {
    days: days.map((d) => ({ date: d.date, leads: d.calls, payouts: payouts.get(d.date) ?? 0 })),
  };
}

/**
 * The network's payouts dated in [from, to] of the network's zone, paid and recorded apart: the
 * days of payout_day_totals (the paid ones kept apart, drizzle/0032), ≤ 366 rows for a year.
 */
async function payoutsByStatusIn(db: DbOrTx, from: string, to: string) {
  const [row] = await rowsOf<{ amount: string; paid: string }>(
    db,
    sql`select coalesce(sum(amount), 0)::text as amount, coalesce(sum(paid_amount), 0)::text as paid
        from ${payoutDayTotals} where day >= ${from}::date and day <= ${to}::date`,
  );
  const paid = cents(row?.paid ?? '0');
  return { paid, recorded: cents(row?.amount ?? '0') - paid };
}

/**
 * The dashboard over a picked range of the network's days: payouts dated in it, paid (the Total
 * Payouts card) and recorded apart, and calls and payouts per day (the chart), from the report rollups.
 */
export async function getRangeStats(
  opts: ListRead<DashboardRangeQuery> & { now?: Date },
): Promise<AdminRangeStats> {
  const tz = await networkTimeZone(opts.db);
  const { from, to } = dashboardDays(tz, opts.query, opts.now);
  const [days, payouts, byStatus] = await Promise.all([
    dailyFigures(opts.db, { owner: NETWORK_OWNER, from, to }),
    dailyPayouts(opts.db, { tz, from, to }),
    payoutsByStatusIn(opts.db, from, to),
  ]);
  return {
    timezone: tz,
    range: opts.query.range,
    from,
    to,
    total_payouts: centsMoney(byStatus.paid),
    recorded_payouts: centsMoney(byStatus.recorded),
    leads: days.reduce((n, d) => n + d.calls, 0),
    days: days.map((d) => ({ date: d.date, leads: d.calls, payouts: payouts.get(d.date) ?? 0 })),
  };
}
