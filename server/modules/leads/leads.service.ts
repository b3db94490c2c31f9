import { and, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type {
  AdminLead,
  CreateLead,
  LeadCsvQuery,
  LeadList,
  LeadListQuery,
  UpdateLeadStatus,
} from '../../../contract/admin.ts';
import { type LeadFilter, reasonSentence } from '../../../contract/lead-actions.ts';
import type { DbOrTx } from '../../db/client.ts';
import { keysetCsv } from '../../db/csv.ts';
import { countRows, dateBounds, deferredPage, keysetOf, listPage } from '../../db/list-query.ts';
import { fromMoney, toMoney } from '../../db/money.ts';
import type { OfferRefRow, PublisherRefRow } from '../../db/refs.ts';
import {
  joinPublisherAndOffer,
  offerRefColumns,
  publisherRefColumns,
  toOfferRef,
  toPublisherRef,
} from '../../db/refs.ts';
import { oneOrNotFound } from '../../db/rows.ts';
import { leads, offers, users } from '../../db/schema.ts';
import { invalidField } from '../../errors.ts';
import { type AdminEdit, type AdminWrite, auditTrail } from '../audit/index.ts';
import { exactLeadCount, seekLeadDays } from './lead-totals.ts';

const auditLead = auditTrail('lead');

const leadColumns = {
  id: leads.id,
  ...publisherRefColumns(leads.publisherId),
  ...offerRefColumns(leads.offerId),
  payout: leads.payout,
  status: leads.status,
  callDuration: leads.callDuration,
  timestamp: leads.timestamp,
  callId: leads.externalCallId,
  caller: leads.caller,
};

type LeadRow = PublisherRefRow &
  OfferRefRow & {
    id: string;
    payout: string;
    status: 'approved' | 'pending' | 'rejected';
    callDuration: number;
    timestamp: Date;
    callId: string | null;
    caller: string | null;
  };

function toAdminLead(r: LeadRow): AdminLead {
  return {
    id: r.id,
    ...toPublisherRef(r),
    ...toOfferRef(r),
    payout: toMoney(r.payout),
    status: r.status,
    call_duration: r.callDuration,
    timestamp: r.timestamp.toISOString(),
    call_id: r.callId,
    caller: r.caller,
  };
}

/**
 * A call looked up by what the tracker shows the operator: its call id exactly, or, when the
 * search reads as a phone number, the caller or the tracking number by their last 10 digits
 * (caller_key), in whatever format it was typed or stored. Each branch has its index.
 */
export function leadSearch(q: string): SQL {
  const byId = eq(leads.externalCallId, q);
  const digits = q.replace(/\D/g, '');
  if (digits.length < 7 || !/^[\d\s().+-]+$/.test(q)) return byId;
  const key = digits.slice(-10);
  return or(
    byId,
    sql`caller_key(${leads.caller}) = ${key}`,
    sql`caller_key(${leads.trackingNumber}) = ${key}`,
  ) as SQL;
}

/** The list's filter as SQL (also the totals' and the bulk action's). */
export function leadWhere(f: LeadFilter): SQL | undefined {
  return and(
    f.q ? leadSearch(f.q) : undefined,
    f.status ? eq(leads.status, f.status) : undefined,
    f.publisher_id ? eq(leads.publisherId, f.publisher_id) : undefined,
    f.offer_id ? eq(leads.offerId, f.offer_id) : undefined,
    f.state ? (f.state === 'none' ? isNull(leads.state) : eq(leads.state, f.state)) : undefined,
    f.vertical
      ? inArray(
          leads.offerId,
          sql`(select ${offers.id} from ${offers} where ${offers.vertical} = ${f.vertical})`,
        )
      : undefined,
    dateBounds(leads.timestamp, f),
  );
}

const sortColumns = {
  timestamp: leads.timestamp,
  payout: leads.payout,
  call_duration: leads.callDuration,
} as const;

const selectLeads = <Extra extends Record<string, SQL>>(db: DbOrTx, extra = {} as Extra) =>
  joinPublisherAndOffer(
    db
      .select({ ...leadColumns, ...extra })
      .from(leads)
      .$dynamic(),
    leads.publisherId,
    leads.offerId,
  );

/**
 * Every lead with publisher and offer, filtered, sorted (timestamp by default) and paged.
 * Deferred join: the page's ids are read alone from the (sort, id) index that serves the filter
 * (an index-only range scan, also past an OFFSET of thousands), then publisher and offer are
 * joined for those rows only. The total comes from the maintained lead totals, or is capped
 * (TOTAL_CAP): no count(*) over 1M rows.
 */
export async function listLeads(opts: { db: DbOrTx; query: LeadListQuery }): Promise<LeadList> {
  const { db, query } = opts;
  const cond = leadWhere(query);
  return listPage({
    query,
    keyset: keysetOf(sortColumns, query, leads.id),
    rows: (w) => deferredPage(db, selectLeads(db, { sortKey: w.sortKey }), leads.id, cond, w),
    count: () => countRows(db, leads, cond, 'capped'),
    // Exact from the maintained lead totals when they answer the filter (no offer, whole days…);
    // otherwise the capped count.
    exactTotal: () => exactLeadCount(db, query),
    // A deep page by time starts at its day, counted from the day totals (no OFFSET of 25k).
    ...(query.sort === 'timestamp'
      ? { seek: (offset: number, dir: 'asc' | 'desc') => seekLeadDays(db, query, offset, dir) }
      : {}),
    toItem: toAdminLead,
  });
}

async function getLead(db: DbOrTx, id: string): Promise<LeadRow> {
  return oneOrNotFound(selectLeads(db).where(eq(leads.id, id)), 'Lead');
}

/** A lead may be dated up to this far ahead, to forgive clock skew. */
const FUTURE_SLACK_MS = 5 * 60 * 1000;

/** Records a lead by hand; the payout defaults to the offer's. */
export async function createLead(opts: AdminWrite<CreateLead>): Promise<AdminLead> {
  const { input } = opts;
  const timestamp = input.timestamp ? new Date(input.timestamp) : new Date();
  if (timestamp.getTime() > Date.now() + FUTURE_SLACK_MS) {
    throw invalidField('timestamp', 'A lead cannot be dated in the future.');
  }
  return opts.db.transaction(async (tx) => {
    const [publisher] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, input.publisher_id), eq(users.role, 'publisher')));
    if (!publisher) {
      throw invalidField('publisher_id', 'The selected publisher does not exist.');
    }
    const [offer] = await tx
      .select({ id: offers.id, payout: offers.payout })
      .from(offers)
      .where(eq(offers.id, input.offer_id));
    if (!offer) {
      throw invalidField('offer_id', 'The selected offer does not exist.');
    }
    const [row] = await tx
      .insert(leads)
      .values({
        publisherId: publisher.id,
        offerId: offer.id,
        payout: input.payout === undefined ? offer.payout : fromMoney(input.payout),
        status: input.status ?? 'pending',
        callDuration: input.call_duration ?? 0,
        timestamp,
      })
      .returning({ id: leads.id });
    const lead = toAdminLead(await getLead(tx, row!.id));
    await auditLead(tx, opts.actor, 'create', lead.id, {
      before: null,
      after: {
        publisher_id: lead.publisher_id,
        offer_id: lead.offer_id,
        payout: lead.payout,
        status: lead.status,
        call_duration: lead.call_duration,
        timestamp: lead.timestamp,
      },
    });
    return lead;
  });
}

/**
 * Sets a lead's status by hand (approved, pending, rejected) with a reason: the reason becomes
 * the lead's status reason, and status_overridden_at keeps later tracker events and offer rules
 * from changing it. Audited with before and after. The same status changes nothing.
 */
export async function updateLeadStatus(opts: AdminEdit<UpdateLeadStatus>): Promise<AdminLead> {
  const { input } = opts;
  const reason = reasonSentence(input.reason, input.note);
  return opts.db.transaction(async (tx) => {
    const before = await oneOrNotFound(
      tx
        .select({ status: leads.status, statusReason: leads.statusReason })
        .from(leads)
        .where(eq(leads.id, opts.id))
        .for('update'),
      'Lead',
    );
    if (before.status !== input.status) {
      await tx
        .update(leads)
        .set({ status: input.status, statusReason: reason, statusOverriddenAt: sql`now()` })
        .where(eq(leads.id, opts.id));
      await auditLead(tx, opts.actor, 'status', opts.id, {
        before: { status: before.status, status_reason: before.statusReason },
        after: { status: input.status, status_reason: reason, reason: input.reason },
      });
    }
    return toAdminLead(await getLead(tx, opts.id));
  });
}

/**
 * The filtered leads as CSV, in the list's order, read in keyset batches (flat memory). A
 * rejected lead pays nothing: its `payout` is 0.00, so summing the column never counts it, and
 * `would_have_paid` keeps what it would have paid (empty for the other statuses), as the screens
 * show it struck through (issue 27 item 1).
 */
export function leadsCsv(opts: { db: DbOrTx; filter: LeadCsvQuery }): AsyncGenerator<string> {
  const { db, filter } = opts;
  return keysetCsv({
    header: [
      'id',
      'timestamp',
      'publisher_name',
      'publisher_email',
      'offer',
      'status',
      'call_duration_min',
      'payout',
      'would_have_paid',
    ],
    keyset: keysetOf(sortColumns, filter, leads.id),
    select: (sortKey) => selectLeads(db, { sortKey }),
    where: leadWhere(filter),
    line: (r) => [
      r.id,
      r.timestamp.toISOString(),
      r.publisherName,
      r.publisherEmail,
      r.offerTitle,
      r.status,
      r.callDuration,
      r.status === 'rejected' ? '0.00' : r.payout,
      r.status === 'rejected' ? r.payout : null,
    ],
  });
}
