import { and, eq, sql } from 'drizzle-orm';
import type { AdminStats, DailyStats } from '../../../contract/admin.ts';
import type { DbOrTx } from '../../db/client.ts';
import { countAll } from '../../db/list-query.ts';
import { toMoney } from '../../db/money.ts';
import { offerApplications, payouts, users } from '../../db/schema.ts';

/** The dashboard cards, each one SQL aggregate. */
export async function getStats(opts: { db: DbOrTx }): Promise<AdminStats> {
  const { db } = opts;
  const [[pub], [apps], [pay]] = await Promise.all([
    db
      .select({ n: countAll() })
      .from(users)
      .where(and(eq(users.role, 'publisher'), eq(users.status, 'pending'))),
    db
      .select({ n: countAll() })
      .from(offerApplications)
      .where(eq(offerApplications.status, 'pending')),
    db.select({ sum: sql<string>`coalesce(sum(${payouts.amount}), 0)` }).from(payouts),
  ]);
  return {
    pending_publishers: pub?.n ?? 0,
    pending_applications: apps?.n ?? 0,
    total_payouts: toMoney(pay?.sum),
  };
}

/**
 * Leads per day and payouts per day for the last `days` UTC days (today included), zeros
 * for quiet days, oldest first.
 */
export async function getDailyStats(opts: { db: DbOrTx; days: number }): Promise<DailyStats> {
  const start = new Date();
  start.setUTCHours(0, 0, 0, 0);
  start.setUTCDate(start.getUTCDate() - (opts.days - 1));
  const startIso = start.toISOString();
  // Both drivers (pg and PGlite) answer raw SQL with `rows`.
  const result = (await opts.db.execute(sql`
    with days as (
      select (${startIso}::timestamptz + make_interval(days => g))::timestamptz as day_start
      from generate_series(0, ${opts.days - 1}::int) as g
    ),
    l as (
      select date_trunc('day', "timestamp" at time zone 'UTC') as d, count(*)::int as n
      from leads where "timestamp" >= ${startIso}::timestamptz
      group by 1
    ),
    p as (
      select date_trunc('day', "date" at time zone 'UTC') as d, sum(amount) as s
      from payouts where "date" >= ${startIso}::timestamptz
      group by 1
    )
    select to_char(days.day_start at time zone 'UTC', 'YYYY-MM-DD') as day,
           coalesce(l.n, 0)::int as leads,
           coalesce(p.s, 0)::text as payouts
    from days
    left join l on l.d = days.day_start at time zone 'UTC'
    left join p on p.d = days.day_start at time zone 'UTC'
    order by days.day_start
  `)) as unknown as { rows: { day: string; leads: number; payouts: string }[] };
  return {
    days: result.rows.map((r) => ({
      date: r.day,
      leads: Number(r.leads),
      payouts: toMoney(r.payouts),
    })),
  };
}
