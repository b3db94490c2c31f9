import { eq, gte, sql } from 'drizzle-orm';
import {
  type AdminStats,
  type DailyStats,
  REFUSED_CALLS_CAP,
  type SetupChecklist,
  type SetupStep,
  setupSteps,
} from '../../../contract/admin.ts';
import {
  type AdminRangeStats,
  addDays,
  type DashboardRangeQuery,
  dayIn,
} from '../../../contract/reports.ts';
import { DEFAULT_SETTINGS } from '../../../contract/settings.ts';
import type { DbOrTx } from '../../db/client.ts';
import { rowsOf } from '../../db/client.ts';
import { countAll, type ListRead } from '../../db/list-query.ts';
import { cents, centsMoney } from '../../db/money.ts';
import { ingestRefusals, integrations, offers, payoutDayTotals, users } from '../../db/schema.ts';
import { getSettings, networkTimeZone } from '../../db/settings.ts';
import { heldPublisherCount, networkBalance } from '../money/index.ts';
import { waitingForAdmins } from '../notifications/index.ts';
import { dailyFigures, dailyPayouts, dashboardDays } from './dashboard.queries.ts';
import { NETWORK_OWNER } from './reports.queries.ts';

const DAY_MS = 86_400_000;

/**
 * The dashboard cards: two counts and the network's money figures (money/figures.ts): Total
 * Payouts is what was marked paid; what sits in recorded runs is shown apart.
 */
export async function getStats(opts: { db: DbOrTx; now?: Date }): Promise<AdminStats> {
  const { db } = opts;
  const since = new Date((opts.now ?? new Date()).getTime() - DAY_MS);
  const [waiting, refused, held, balance] = await Promise.all([
    waitingForAdmins(db),
    refusedCallsSince(db, since),
    heldPublisherCount(db),
    networkBalance(db),
  ]);
  return {
    ...waiting,
    refused_calls_24h: refused,
    held_payouts: held,
    total_payouts: balance.paid,
    balance,
  };
}

/**
 * Calls the endpoint refused since `since`, counted up to REFUSED_CALLS_CAP through
 * ingest_refusals_created_idx (a flood of refusals costs a bounded index read).
 */
async function refusedCallsSince(db: DbOrTx, since: Date): Promise<number> {
  const recent = db
    .select({ one: sql`1` })
    .from(ingestRefusals)
    .where(gte(ingestRefusals.createdAt, since))
    .limit(REFUSED_CALLS_CAP)
    .as('recent');
  const [row] = await db.select({ n: countAll() }).from(recent);
  return row?.n ?? 0;
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

/**
 * The newcomer's checklist of the dashboard (issue 34), each step judged from the network's
 * data: the portal branded (a logo, or a company name of its own), an offer, an integration
 * (a tracker connected), a publisher signed up. Each an existence check (`limit 1`).
 */
export async function getSetupChecklist(opts: {
  db: DbOrTx;
  userId: string;
}): Promise<SetupChecklist> {
  const { db } = opts;
  const any = async (q: Promise<unknown[]>) => (await q).length > 0;
  const [s, offer, tracker, publisher, [me]] = await Promise.all([
    getSettings(db),
    any(db.select({ id: offers.id }).from(offers).limit(1)),
    any(db.select({ id: integrations.id }).from(integrations).limit(1)),
    any(db.select({ id: users.id }).from(users).where(eq(users.role, 'publisher')).limit(1)),
    db
      .select({ dismissedAt: users.setupChecklistDismissedAt })
      .from(users)
      .where(eq(users.id, opts.userId)),
  ]);
  const done: Record<SetupStep, boolean> = {
    brand: Boolean(s.logoUrl) || s.companyName !== DEFAULT_SETTINGS.company_name,
    offer,
    tracker,
    publishers: publisher,
  };
  return {
    steps: setupSteps.map((step) => ({ step, done: done[step] })),
    dismissed: Boolean(me?.dismissedAt),
  };
}

/** "Dismiss": this admin's checklist stays hidden from now on (kept on their account). */
export async function dismissSetupChecklist(opts: {
  db: DbOrTx;
  userId: string;
}): Promise<SetupChecklist> {
  await opts.db
    .update(users)
    .set({ setupChecklistDismissedAt: sql`coalesce(${users.setupChecklistDismissedAt}, now())` })
    .where(eq(users.id, opts.userId));
  return getSetupChecklist(opts);
}
