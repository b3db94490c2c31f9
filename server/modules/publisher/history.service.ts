import { and, count, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type {
  LeadSort,
  PayoutSort,
  PublisherLeadList,
  PublisherPayoutList,
  SortOrder,
} from '../../../contract/publisher.ts';
import type { LeadStatus } from '../../../contract/roles.ts';
import type { DbOrTx } from '../../db/client.ts';
import { fromBound, orderBy, toBoundExclusive } from '../../db/list-query.ts';
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
export async function listPublisherLeads(opts: {
  db: DbOrTx;
  publisherId: string;
  page: number;
  pageSize: number;
  status?: LeadStatus;
  from?: string;
  to?: string;
  sort?: LeadSort;
  order?: SortOrder;
}): Promise<PublisherLeadList> {
  const { db, publisherId, page, pageSize, sort = 'timestamp', order = 'desc' } = opts;
  const filters: SQL[] = [eq(leads.publisherId, publisherId)];
  if (opts.status) filters.push(eq(leads.status, opts.status));
  if (opts.from) filters.push(gte(leads.timestamp, fromBound(opts.from)));
  if (opts.to) filters.push(lt(leads.timestamp, toBoundExclusive(opts.to)));
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
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
      .orderBy(...orderBy(leadSortColumns[sort], order, leads.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(leads).where(where),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.id,
      offer_id: r.offerId,
      offer_title: r.title,
      payout: toMoney(r.payout),
      status: r.status,
      call_duration: r.duration,
      timestamp: r.timestamp.toISOString(),
    })),
    total: total?.n ?? 0,
    page,
    page_size: pageSize,
  };
}

const payoutSortColumns = { date: payouts.date, amount: payouts.amount } as const;

/** The publisher's own payouts (amount, notes, date), newest first unless sorted otherwise. */
export async function listPublisherPayouts(opts: {
  db: DbOrTx;
  publisherId: string;
  page: number;
  pageSize: number;
  sort?: PayoutSort;
  order?: SortOrder;
}): Promise<PublisherPayoutList> {
  const { db, publisherId, page, pageSize, sort = 'date', order = 'desc' } = opts;
  const where = eq(payouts.publisherId, publisherId);
  const [rows, [total]] = await Promise.all([
    db
      .select({ id: payouts.id, amount: payouts.amount, notes: payouts.notes, date: payouts.date })
      .from(payouts)
      .where(where)
      .orderBy(...orderBy(payoutSortColumns[sort], order, payouts.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(payouts).where(where),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.id,
      amount: toMoney(r.amount),
      notes: r.notes,
      date: r.date.toISOString(),
    })),
    total: total?.n ?? 0,
    page,
    page_size: pageSize,
  };
}
