import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { statementNumber } from '../../../contract/money.ts';
import type {
  PublisherLeadList,
  PublisherLeadsQuery,
  PublisherPayoutList,
  PublisherPayoutsQuery,
} from '../../../contract/publisher.ts';
import type { ListRead } from '../../db/list-query.ts';
import {
  countRows,
  dateBounds,
  keysetOf,
  listPage,
  type PageWindow,
  pageOf,
} from '../../db/list-query.ts';
import { toMoney } from '../../db/money.ts';
import { leads, offers, payouts } from '../../db/schema.ts';
import { exactLeadCount, type LeadCountFilter, seekLeadDays } from './lead-totals.ts';

// Status sorts by its name (as shown), offer by its title without regard to case.
const leadSortColumns = {
  timestamp: leads.timestamp,
  payout: leads.payout,
  call_duration: leads.callDuration,
  status: sql`${leads.status}::text`,
  offer: sql`lower(${offers.title})`,
} as const;

/**
 * The publisher's own leads filtered by status and days of the network's zone (both ends
 * included), sorted (newest first by default; the leads_publisher_ts index serves that order)
 * and paged.
 */
export function listPublisherLeads(
  opts: ListRead<z.output<typeof PublisherLeadsQuery>> & { publisherId: string },
): Promise<PublisherLeadList> {
  const { db, publisherId, query } = opts;
  const where = and(
    eq(leads.publisherId, publisherId),
    query.q ? eq(leads.externalCallId, query.q) : undefined,
    query.status ? eq(leads.status, query.status) : undefined,
    dateBounds(leads.timestamp, query),
  );
  const key = keysetOf(leadSortColumns, query, leads.id);
  // The same filter as the maintained lead totals read it.
  const totalsFilter: LeadCountFilter = {
    q: query.q,
    publisher_id: publisherId,
    status: query.status,
    from: query.from,
    to: query.to,
  };
  // The page's ids first, from the (publisher, time, id) index (or the index of the other
  // column), then the offer for those rows only (deferred join).
  const pageIds = (w: PageWindow) => {
    if (query.sort === 'offer') return pageIdsByOffer(w);
    return pageOf(db.select({ id: leads.id }).from(leads).$dynamic(), where, w);
  };
  // Sorted by offer title: a publisher's leads belong to a few offers, so the offers are read in
  // title order and, for each, the first ids past the cursor come from the (publisher, offer,
  // id) index, at most a page's worth. The outer sort is then incremental (its rows already come
  // in title order: only the ids of one title are sorted) and stops once the page is full: the
  // first offers are read, not all. A big publisher (103k leads, 200 offers) at 1M: 64–72 ms
  // (each offer read, then all sorted) → 0.66–0.81 ms, page 5. The outer ORDER BY names the
  // subquery's own `sort_title` so PostgreSQL knows the rows come in that order; the lateral's
  // alias is "leads" and the offers' "offers", which the filter and the cursor name. After a
  // cursor, the offers whose title sorts before the cursor's are not read at all (each would
  // be a scan of all its rows that the cursor then refuses).
  const pageIdsByOffer = (w: PageWindow) => {
    const dir = w.direction === 'asc' ? sql`asc` : sql`desc`;
    const from = w.cursor?.value;
    const notBefore =
      from === undefined || from === null
        ? sql``
        : w.direction === 'asc'
          ? sql`where lower(${offers.title}) >= ${from}::text`
          : sql`where lower(${offers.title}) <= ${from}::text`;
    return sql`(select "leads"."id" from (
        select ${offers.id}, ${offers.title}, lower(${offers.title}) as "sort_title" from ${offers}
        ${notBefore} order by 3 ${dir}) as "offers"
      cross join lateral (
        select ${leads.id} from ${leads}
        where ${leads.offerId} = "offers"."id" and ${and(where, w.after)}
        order by ${leads.id} ${dir}
        limit ${w.limit + w.offset}
      ) as "leads"
      order by "offers"."sort_title" ${dir}, "leads"."id" ${dir}
      limit ${w.limit} offset ${w.offset})`;
  };
  return listPage({
    query,
    keyset: key,
    rows: (w) =>
      db
        .select({
          id: leads.id,
          offerId: leads.offerId,
          title: offers.title,
          payout: leads.payout,
          status: leads.status,
          duration: leads.callDuration,
          timestamp: leads.timestamp,
          callId: leads.externalCallId,
          statusReason: leads.statusReason,
          sortKey: w.sortKey,
        })
        .from(leads)
        .innerJoin(offers, eq(offers.id, leads.offerId))
        .where(inArray(leads.id, pageIds(w)))
        .orderBy(...w.orderBy),
    count: () => countRows(db, leads, where, 'capped'),
    // Exact from the maintained lead totals when they answer the filter; else the capped count.
    exactTotal: () => exactLeadCount(db, totalsFilter),
    // A deep page by time starts at its day, counted from the publisher's day totals.
    ...(query.sort === 'timestamp'
      ? {
          seek: (offset: number, dir: 'asc' | 'desc') =>
            seekLeadDays(db, totalsFilter, offset, dir),
        }
      : {}),
    toItem: (r) => ({
      id: r.id,
      offer_id: r.offerId,
      offer_title: r.title,
      payout: toMoney(r.payout),
      status: r.status,
      call_duration: r.duration,
      timestamp: r.timestamp.toISOString(),
      call_id: r.callId,
      status_reason: r.statusReason,
    }),
  });
}

const payoutSortColumns = { date: payouts.date, amount: payouts.amount } as const;

/** The publisher's own payouts (amount, notes, date), newest first unless sorted otherwise. */
export function listPublisherPayouts(
  opts: ListRead<z.output<typeof PublisherPayoutsQuery>> & { publisherId: string },
): Promise<PublisherPayoutList> {
  const { db, publisherId, query } = opts;
  const where = eq(payouts.publisherId, publisherId);
  return listPage({
    query,
    keyset: keysetOf(payoutSortColumns, query, payouts.id),
    rows: (w) =>
      pageOf(
        db
          .select({
            ...getTableColumns(payouts),
            sortKey: w.sortKey,
          })
          .from(payouts)
          .$dynamic(),
        where,
        w,
      ),
    count: () => countRows(db, payouts, where, 'capped'),
    toItem: (r) => ({
      id: r.id,
      amount: toMoney(r.amount),
      notes: r.notes,
      date: r.date.toISOString(),
      status: r.status,
      reference: r.reference,
      period_from: r.periodFrom,
      period_to: r.periodTo,
      statement_number: statementNumber(r.statementYear, r.statementSeq),
    }),
  });
}
