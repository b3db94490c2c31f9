// Reads of the maintained aggregates (issue 12): lead_totals, lead_daily_totals and
// lead_publisher_daily_totals (days of the network's time zone since drizzle/0029), kept by the
// triggers of drizzle/0006, and payout_day_totals (drizzle/0021). Every figure is split over a
// few slots; these reads sum them.

import { type AnyColumn, and, asc, desc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import type { leadStatuses } from '../../../contract/roles.ts';
import type { DbOrTx } from '../../db/client.ts';
import { type Seek, zoneDayStart } from '../../db/list-query.ts';
import {
  leadDailyTotals,
  leadPublisherDailyTotals,
  leads,
  leadTotals,
  payoutDayTotals,
} from '../../db/schema.ts';

export type LeadCountFilter = {
  /** A search (call id, caller, tracking number): the maintained totals never answer it. */
  q?: string | undefined;
  publisher_id?: string | undefined;
  status?: (typeof leadStatuses)[number] | undefined;
  offer_id?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  state?: string | undefined;
  vertical?: string | undefined;
};

const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);

/**
 * The days [first, last] of the network's time zone a from/to filter covers, as the lists read
 * it (dateBounds: a bare day is a whole day of the zone), when both bounds are bare days; null
 * when it has no range; undefined when a bound is a date-time (it may fall inside a day).
 */
function dayRange(f: LeadCountFilter): { first?: string; last?: string } | null | undefined {
  if (!f.from && !f.to) return null;
  if ((f.from && !isDay(f.from)) || (f.to && !isDay(f.to))) return undefined;
  return { ...(f.from ? { first: f.from } : {}), ...(f.to ? { last: f.to } : {}) };
}

const total = (column: AnyColumn) => sql<number>`coalesce(sum(${column}), 0)::int`;

/**
 * count(*) of the leads matching `filter`, read from the maintained aggregates when they can
 * answer it exactly: no filter, status, publisher, publisher and status, a range of whole days
 * of the network's time zone (with or without status, or with a publisher but no status). Undefined otherwise (an
 * offer, a range that starts or ends inside a day, publisher + status + range): the caller
 * counts the rows itself.
 */
export async function exactLeadCount(
  db: DbOrTx,
  filter: LeadCountFilter,
): Promise<number | undefined> {
  return (await maintainedLeadTotals(db, filter))?.leads;
}

type LeadStatus = (typeof leadStatuses)[number];

/** Leads and their payout sum (numeric string) of one status. */
export type StatusFigures = { leads: number; payout: string };

export type MaintainedLeadTotals = {
  leads: number;
  /**
   * The same per status, so money figures can leave rejected leads out (issue 27 item 1); null
   * when the aggregate that answers has no status (a publisher and a range of days).
   */
  byStatus: Record<LeadStatus, StatusFigures> | null;
};

/**
 * How many leads match `filter`, with their leads and payout per status, from the maintained
 * aggregates, for the filters `exactLeadCount` describes; undefined for the others.
 */
export async function maintainedLeadTotals(
  db: DbOrTx,
  filter: LeadCountFilter,
): Promise<MaintainedLeadTotals | undefined> {
  if (filter.q || filter.offer_id || filter.state || filter.vertical) return undefined;
  const range = dayRange(filter);
  if (range === undefined) return undefined;
  const sums = (t: { leads: AnyColumn; payout: AnyColumn }) => ({
    leads: total(t.leads),
    payout: sql<string>`coalesce(sum(${t.payout}), 0)::text`,
  });
  const byStatus = (rows: ({ status: LeadStatus } & StatusFigures)[]): MaintainedLeadTotals => {
    const out: Record<LeadStatus, StatusFigures> = {
      approved: { leads: 0, payout: '0' },
      pending: { leads: 0, payout: '0' },
      rejected: { leads: 0, payout: '0' },
    };
    for (const r of rows) out[r.status] = { leads: Number(r.leads), payout: r.payout };
    const leads = out.approved.leads + out.pending.leads + out.rejected.leads;
    return { leads, byStatus: out };
  };
  if (range === null && filter.publisher_id) {
    const rows = await db
      .select({ status: leadTotals.status, ...sums(leadTotals) })
      .from(leadTotals)
      .where(
        and(
          eq(leadTotals.publisherId, filter.publisher_id),
          filter.status ? eq(leadTotals.status, filter.status) : undefined,
        ),
      )
      .groupBy(leadTotals.status);
    return byStatus(rows);
  }
  if (filter.publisher_id && range) {
    if (filter.status) return undefined;
    const [row] = await db
      .select(sums(leadPublisherDailyTotals))
      .from(leadPublisherDailyTotals)
      .where(
        and(
          eq(leadPublisherDailyTotals.publisherId, filter.publisher_id),
          range.first ? gte(leadPublisherDailyTotals.day, range.first) : undefined,
          range.last ? lte(leadPublisherDailyTotals.day, range.last) : undefined,
        ),
      );
    return { leads: row?.leads ?? 0, byStatus: null };
  }
  // Network-wide: the daily totals (a few rows a day) are far fewer than lead_totals' rows.
  const rows = await db
    .select({ status: leadDailyTotals.status, ...sums(leadDailyTotals) })
    .from(leadDailyTotals)
    .where(
      and(
        filter.status ? eq(leadDailyTotals.status, filter.status) : undefined,
        range?.first ? gte(leadDailyTotals.day, range.first) : undefined,
        range?.last ? lte(leadDailyTotals.day, range.last) : undefined,
      ),
    )
    .groupBy(leadDailyTotals.status);
  return byStatus(rows);
}

/** One publisher's leads: how many and their payout sum (numeric string), all statuses. */
export async function publisherLeadTotals(
  db: DbOrTx,
  publisherId: string,
): Promise<{ leads: number; payout: string }> {
  const [row] = await db
    .select({
      leads: total(leadTotals.leads),
      payout: sql<string>`coalesce(sum(${leadTotals.payout}), 0)::text`,
    })
    .from(leadTotals)
    .where(eq(leadTotals.publisherId, publisherId));
  return { leads: row?.leads ?? 0, payout: row?.payout ?? '0' };
}

/** Every payout ever recorded: the amount paid (numeric string). */
export async function networkPayoutTotal(db: DbOrTx): Promise<string> {
  const [row] = await db
    .select({ amount: sql<string>`coalesce(sum(${payoutDayTotals.amount}), 0)::text` })
    .from(payoutDayTotals);
  return row?.amount ?? '0';
}

/**
 * Where a deep page of a leads list sorted by time starts (listPage's `seek`): the days of the
 * network's zone the filter covers are counted from the day totals (a few hundred rows a year),
 * the day holding the page's first row is found, and the rows of the days before it (in the
 * list's direction) are left out by one bound on `timestamp` instead of an OFFSET over them. The
 * page is then an OFFSET inside one day. Undefined when the day totals cannot answer the filter
 * exactly (as `maintainedLeadTotals`: a search, an offer, a state, a vertical, a range that
 * starts or ends inside a day, a publisher with a status).
 */
export async function seekLeadDays(
  db: DbOrTx,
  filter: LeadCountFilter,
  offset: number,
  direction: 'asc' | 'desc',
): Promise<Seek | undefined> {
  if (filter.q || filter.offer_id || filter.state || filter.vertical) return undefined;
  if (filter.publisher_id && filter.status) return undefined;
  const range = dayRange(filter);
  if (range === undefined) return undefined;
  const t = filter.publisher_id
    ? {
        table: leadPublisherDailyTotals,
        day: leadPublisherDailyTotals.day,
        leads: leadPublisherDailyTotals.leads,
      }
    : { table: leadDailyTotals, day: leadDailyTotals.day, leads: leadDailyTotals.leads };
  const days = db
    .select({ day: t.day, n: sql<number>`sum(${t.leads})`.as('n') })
    .from(t.table)
    .where(
      and(
        filter.publisher_id
          ? eq(leadPublisherDailyTotals.publisherId, filter.publisher_id)
          : undefined,
        filter.status ? eq(leadDailyTotals.status, filter.status) : undefined,
        range?.first ? gte(t.day, range.first) : undefined,
        range?.last ? lte(t.day, range.last) : undefined,
      ),
    )
    .groupBy(t.day)
    .as('days');
  const dir = direction === 'desc' ? sql`desc` : sql`asc`;
  // The leads of the days before each day, in the list's direction.
  const before = sql<number>`coalesce(sum(${days.n}) over (order by ${days.day} ${dir}
    rows between unbounded preceding and 1 preceding), 0)`;
  const counted = db
    .select({ day: days.day, n: days.n, before: before.as('before') })
    .from(days)
    .as('counted');
  const [row] = await db
    .select({ day: counted.day, before: sql<string>`${counted.before}::text` })
    .from(counted)
    .where(sql`${counted.before} <= ${offset} and ${counted.before} + ${counted.n} > ${offset}`)
    .orderBy(direction === 'desc' ? desc(counted.day) : asc(counted.day))
    .limit(1);
  if (!row) return undefined;
  return {
    where:
      direction === 'desc'
        ? lt(leads.timestamp, zoneDayStart(row.day, 1))
        : gte(leads.timestamp, zoneDayStart(row.day)),
    skipped: Number(row.before),
  };
}
