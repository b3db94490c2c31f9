import { type SQL, sql } from 'drizzle-orm';
import { type ReportRange, resolveRange } from '../../../contract/reports.ts';
import type { DbOrTx } from '../../db/client.ts';
import { toMoney } from '../../db/money.ts';
import { foldReports } from './report-fold.ts';
import { checkReportSpan, NETWORK_OWNER } from './reports.queries.ts';

type Rows<T> = { rows: T[] };
const rowsOf = <T>(r: unknown): T[] => (r as Rows<T>).rows;

// ---------------------------------------------------------------------------
// Dashboards over a range (the admin dashboard, the publisher overview)
// ---------------------------------------------------------------------------

export type DashboardRange = {
  range: ReportRange;
  from?: string | undefined;
  to?: string | undefined;
};

/** The days of a dashboard's range in zone tz, checked like a report grouped by day. */
export function dashboardDays(tz: string, q: DashboardRange, now?: Date) {
  const { from, to } = resolveRange(tz, q, now);
  checkReportSpan('day', from, to);
  return { from, to };
}

/**
 * Calls and the payout of the payable ones per day of [from, to] for one owner, every day
 * (quiet ones zero), from the 'all' rows of the day table: a year is 365 rows.
 */
export async function dailyFigures(
  db: DbOrTx,
  opts: { owner: string; from: string; to: string },
): Promise<{ date: string; calls: number; payout: number }[]> {
  await foldReports(db);
  const res = rowsOf<{ date: string; calls: string | number; payout: string }>(
    await db.execute(sql`
      select to_char(d, 'YYYY-MM-DD') as date, coalesce(x.calls, 0) as calls,
             coalesce(x.payout, 0)::text as payout
      from generate_series(${opts.from}::date, ${opts.to}::date, interval '1 day') d
      left join (
        select day, sum(calls) as calls, sum(payout) as payout from report_day_totals
        where owner = ${opts.owner} and dim = 'all' and day >= ${opts.from}::date and day <= ${opts.to}::date
        group by day
      ) x on x.day = d::date
      order by d`),
  );
  return res.map((r) => ({ date: r.date, calls: Number(r.calls), payout: toMoney(r.payout) }));
}

/**
 * Calls and their seconds for the network's keys of one dimension (a buyer's campaigns), from the
 * month rollup after folding the queue: of one month (its first day, a month of the network's
 * zone, as the rollup's), or of every month. Never the leads, whatever their number. (A month's
 * days from the day rollup read every key's rows of each day and kept the few asked for: 5,395
 * rows for a buyer's 27 days, 11.8 ms; the month's row of each key is one probe.)
 */
export async function keysFigures(
  db: DbOrTx,
  opts: { dim: 'campaign'; keys: SQL; month?: string },
): Promise<{ calls: number; seconds: number }> {
  await foldReports(db);
  const inMonth = opts.month ? sql`t.month = ${opts.month}::date and` : sql``;
  const [row] = rowsOf<{ calls: string | number; seconds: string | number }>(
    await db.execute(sql`
      select coalesce(sum(t.calls), 0) as calls, coalesce(sum(t.duration_seconds), 0) as seconds
      from report_month_totals t
      where ${inMonth} t.owner = ${NETWORK_OWNER} and t.dim = ${opts.dim}
        and t.key = any(array(${opts.keys}))`),
  );
  return { calls: Number(row?.calls ?? 0), seconds: Number(row?.seconds ?? 0) };
}

/**
 * The network's payouts per day of [from, to] (payout_day_totals, cut in the network's zone, which
 * tz must be).
 */
export async function dailyPayouts(
  db: DbOrTx,
  opts: { tz: string; from: string; to: string },
): Promise<Map<string, number>> {
  const res = rowsOf<{ day: string; amount: string }>(
    await db.execute(sql`
      select to_char(day, 'YYYY-MM-DD') as day, sum(amount)::text as amount
      from payout_day_totals
      where day >= ${opts.from}::date and day <= ${opts.to}::date
      group by 1`),
  );
  return new Map(res.map((r) => [r.day, toMoney(r.amount)]));
}
