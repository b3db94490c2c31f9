import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  PublisherLeadList,
  PublisherLeadsQuery,
  PublisherPayoutList,
  PublisherPayoutsQuery,
} from '../../../contract/publisher.ts';
import type { DbOrTx } from '../../db/client.ts';
import { countAll, dateBounds, listPage, sortBy } from '../../db/list-query.ts';
import { toMoney } from '../../db/money.ts';
import { leads, offers, payouts } from '../../db/schema.ts';

// Status sorts by its name (as shown), offer by its title without regard to case.
const leadSortColumns = {
  timestamp: leads.timestamp,
  payout: leads.payout,
  call_duration: leads.callDuration,
  status: sql`${leads.status}::text`,
  offer: sql`lower(${offers.title})`,
} as const;

/**
 * The publisher's own leads filtered by status and UTC days (both ends included), sorted
 * (newest first by default; the leads_publisher_ts index serves that order) and paged.
 */
export function listPublisherLeads(opts: {
  db: DbOrTx;
  publisherId: string;
  query: z.output<typeof PublisherLeadsQuery>;
}): Promise<PublisherLeadList> {
  const { db, publisherId, query } = opts;
  const where = and(
    eq(leads.publisherId, publisherId),
    query.status ? eq(leads.status, query.status) : undefined,
    dateBounds(leads.timestamp, query),
  );
  return listPage({
    query,
    rows: ({ limit, offset }) =>
      db
        .select({
          id: leads.id,
          offerId: leads.offerId,
          title: offers.title,
          payout: leads.payout,
          status: leads.status,
          duration: leads.callDuration,
          timestamp: leads.timestamp,
        })
        .from(leads)
        .innerJoin(offers, eq(offers.id, leads.offerId))
        .where(where)
        .orderBy(...sortBy(leadSortColumns, query, leads.id))
        .limit(limit)
        .offset(offset),
    count: db.select({ n: countAll() }).from(leads).where(where),
    toItem: (r) => ({
      id: r.id,
      offer_id: r.offerId,
      offer_title: r.title,
      payout: toMoney(r.payout),
      status: r.status,
      call_duration: r.duration,
      timestamp: r.timestamp.toISOString(),
    }),
  });
}

const payoutSortColumns = { date: payouts.date, amount: payouts.amount } as const;

/** The publisher's own payouts (amount, notes, date), newest first unless sorted otherwise. */
export function listPublisherPayouts(opts: {
  db: DbOrTx;
  publisherId: string;
  query: z.output<typeof PublisherPayoutsQuery>;
}): Promise<PublisherPayoutList> {
  const { db, publisherId, query } = opts;
  const where = eq(payouts.publisherId, publisherId);
  return listPage({
    query,
    rows: ({ limit, offset }) =>
      db
        .select({
          id: payouts.id,
          amount: payouts.amount,
          notes: payouts.notes,
          date: payouts.date,
        })
        .from(payouts)
        .where(where)
        .orderBy(...sortBy(payoutSortColumns, query, payouts.id))
        .limit(limit)
        .offset(offset),
    count: db.select({ n: countAll() }).from(payouts).where(where),
    toItem: (r) => ({
      id: r.id,
      amount: toMoney(r.amount),
      notes: r.notes,
      date: r.date.toISOString(),
    }),
  });
}
