import { type SQL, sql } from 'drizzle-orm';
import { maskCaller } from '../../../contract/lead-detail.ts';
import type { LiveCounters, LiveLead } from '../../../contract/live.ts';
import { type DbOrTx, rowsOf } from '../../db/client.ts';
import { toMoney } from '../../db/money.ts';
import { networkTimeZoneSql } from '../../db/settings.ts';

/**
 * Whose calls a stream carries: the admin's everything, a publisher's own calls, a buyer's
 * campaigns' calls (leads.campaign_id, set by the campaign billing trigger), or nothing.
 */
export type LiveScope =
  | { kind: 'all' }
  | { kind: 'publisher'; publisherId: string }
  | { kind: 'buyer'; buyerId: string }
  | { kind: 'none' };

/** One key per scope (counters are worked out once per key, whatever its streams). */
export const scopeKey = (s: LiveScope): string =>
  s.kind === 'publisher'
    ? `publisher:${s.publisherId}`
    : s.kind === 'buyer'
      ? `buyer:${s.buyerId}`
      : s.kind;

/** Whether a call (its publisher, its campaign's buyer) belongs to the scope. */
export const inScope = (
  s: LiveScope,
  lead: { publisher_id: string; buyer_id: string | null },
): boolean =>
  s.kind === 'all' ||
  (s.kind === 'publisher' && lead.publisher_id === s.publisherId) ||
  (s.kind === 'buyer' && lead.buyer_id === s.buyerId);

/**
 * What a scope sees of a call: the admin all of it; a publisher their call without revenue; a
 * buyer the call they paid for (caller's last 4 digits, what it billed as `payout`), never the
 * publisher or the publisher's payout.
 */
export type LiveView = 'admin' | 'publisher' | 'buyer';
export const viewOf = (s: LiveScope): LiveView =>
  s.kind === 'all' ? 'admin' : s.kind === 'buyer' ? 'buyer' : 'publisher';

/** How long a reconnect may look back (Last-Event-ID). */
export const RESUME_WINDOW = sql`interval '5 minutes'`;
/** A call whose last event is one of these is ringing or talking. */
const IN_PROGRESS_EVENTS = sql`('incoming', 'connected')`;
/** A call not heard of for this long is not counted "in progress" any more (a lost hang-up). */
const IN_PROGRESS_FOR = sql`interval '4 hours'`;
/** The first instant of today in the network's time zone. */
const todayStart = sql`(date_trunc('day', now() at time zone ${networkTimeZoneSql}) at time zone ${networkTimeZoneSql})`;

type LeadRow = {
  id: string;
  first: boolean;
  timestamp: Date | string;
  status: LiveLead['status'];
  last_event: string | null;
  duration_seconds: number | null;
  caller: string | null;
  offer_id: string;
  offer_title: string;
  publisher_id: string;
  publisher_name: string | null;
  payout: string;
  revenue: string | null;
  /** The buyer of the call's campaign; null: no campaign. */
  buyer_id: string | null;
  billed: string | null;
};

/** The columns of a live lead (`l` leads, `o` offers, `u` the publisher). */
const leadColumns = sql`l.id, l.timestamp, l.status, l.last_event, l.duration_seconds, l.caller,
  l.offer_id, o.title as offer_title, l.publisher_id, u.name as publisher_name, l.payout::text as payout,
  l.revenue::text as revenue, c.buyer_id, l.billed_amount::text as billed`;
const leadJoins = sql`join offers o on o.id = l.offer_id join users u on u.id = l.publisher_id
  left join campaigns c on c.id = l.campaign_id`;

const scopeWhere = (s: LiveScope): SQL =>
  s.kind === 'all'
    ? sql`true`
    : s.kind === 'publisher'
      ? sql`l.publisher_id = ${s.publisherId}`
      : s.kind === 'buyer'
        ? sql`l.campaign_id in (select id from campaigns where buyer_id = ${s.buyerId})`
        : sql`false`;

/** A row as the stream sends it, as the view may see it. */
export function liveLeadOf(r: LeadRow, view: LiveView): LiveLead {
  const admin = view === 'admin';
  const buyer = view === 'buyer';
  return {
    id: r.id,
    kind: r.first ? 'created' : 'changed',
    timestamp: new Date(r.timestamp).toISOString(),
    status: r.status,
    last_event: r.last_event,
    in_progress:
      r.status !== 'rejected' && (r.last_event === 'incoming' || r.last_event === 'connected'),
    duration_seconds: r.duration_seconds,
    caller: buyer ? maskCaller(r.caller) : r.caller,
    offer_id: r.offer_id,
    offer_title: r.offer_title,
    publisher_id: buyer ? '' : r.publisher_id,
    publisher_name: admin ? r.publisher_name : null,
    payout: toMoney(buyer ? r.billed : r.payout),
    revenue: admin && r.revenue !== null ? toMoney(r.revenue) : null,
  };
}

/** The newest timeline id (where a stream starts when nothing is asked before it). */
export async function newestEventId(db: DbOrTx): Promise<number> {
  const [row] = await rowsOf<{ id: string | number | null }>(
    db,
    sql`select max(id) as id from lead_events`,
  );
  return Number(row?.id ?? 0);
}

export type EventRow = LeadRow & { event_id: number };

/**
 * Timeline rows after `afterId` (at most `limit`, in id order) with their calls' current state.
 * `scope` filters in SQL (a reconnect's catch-up); `recentOnly` keeps the last 5 minutes.
 */
export async function eventsAfter(
  db: DbOrTx,
  opts: {
    afterId: number;
    upToId?: number;
    /** Older ids to read too (the reader's missing ones: a late commit). */
    alsoIds?: number[];
    limit: number;
    scope?: LiveScope;
    recentOnly?: boolean;
  },
): Promise<EventRow[]> {
  const rows = await rowsOf<EventRow & { event_id: string | number }>(
    db,
    sql`select e.id as event_id,
          not exists (select 1 from lead_events p where p.lead_id = e.lead_id and p.id < e.id) as first,
          ${leadColumns}
        from lead_events e join leads l on l.id = e.lead_id ${leadJoins}
        where (e.id > ${opts.afterId}${
          opts.alsoIds?.length
            ? sql` or e.id in (${sql.join(
                opts.alsoIds.map((id) => sql`${id}`),
                sql`, `,
              )})`
            : sql``
        })
          ${opts.upToId !== undefined ? sql`and e.id <= ${opts.upToId}` : sql``}
          ${opts.recentOnly ? sql`and e.created_at > now() - ${RESUME_WINDOW}` : sql``}
          ${opts.scope ? sql`and ${scopeWhere(opts.scope)}` : sql``}
        order by e.id limit ${opts.limit}`,
  );
  return rows.map((r) => ({ ...r, event_id: Number(r.event_id) }));
}

/** One entry per call, in the order of their last event, `created` if any row created it. */
export function leadsOfEvents(rows: EventRow[], view: LiveView): LiveLead[] {
  const byLead = new Map<string, { row: EventRow; first: boolean }>();
  for (const r of rows) {
    const seen = byLead.get(r.id);
    byLead.delete(r.id);
    byLead.set(r.id, { row: r, first: r.first || (seen?.first ?? false) });
  }
  return [...byLead.values()].map(({ row, first }) => liveLeadOf({ ...row, first }, view));
}

/** The last 100 calls of today in the scope, newest first. */
export async function recentLeads(
  db: DbOrTx,
  scope: LiveScope,
  admin: boolean,
): Promise<LiveLead[]> {
  if (scope.kind === 'none') return [];
  const rows = await rowsOf<LeadRow>(
    db,
    sql`select false as first, ${leadColumns}
        from leads l ${leadJoins}
        where l.timestamp >= ${todayStart} and ${scopeWhere(scope)}
        order by l.timestamp desc, l.id desc limit 100`,
  );
  return rows.map((r) => liveLeadOf(r, admin ? 'admin' : viewOf(scope)));
}

const emptyMinutes = (): LiveCounters['per_minute'] => {
  const now = Math.floor(Date.now() / 60_000) * 60_000;
  return Array.from({ length: 60 }, (_, i) => ({
    minute: new Date(now - (59 - i) * 60_000).toISOString(),
    calls: 0,
  }));
};

/** Today's counters of the scope and its calls per minute over the last hour. */
export async function countersOf(
  db: DbOrTx,
  scope: LiveScope,
  admin: boolean,
): Promise<LiveCounters> {
  const perMinute = emptyMinutes();
  if (scope.kind === 'none') {
    return {
      calls_today: 0,
      in_progress: 0,
      payable_today: 0,
      payout_today: 0,
      revenue_today: admin ? 0 : null,
      per_minute: perMinute,
    };
  }
  const where = scopeWhere(scope);
  const [[today], minutes] = await Promise.all([
    rowsOf<{
      calls: number;
      in_progress: number;
      payable: number;
      payout: string;
      revenue: string;
    }>(
      db,
      sql`select count(*)::int as calls,
            count(*) filter (where l.status <> 'rejected' and l.last_event in ${IN_PROGRESS_EVENTS}
              and coalesce(l.last_event_at, l.timestamp) > now() - ${IN_PROGRESS_FOR})::int as in_progress,
            count(*) filter (where l.status = 'approved')::int as payable,
            ${
              scope.kind === 'buyer'
                ? sql`coalesce(sum(l.billed_amount), 0)::text as payout,`
                : sql`coalesce(sum(l.payout) filter (where l.status = 'approved'), 0)::text as payout,`
            }
            coalesce(sum(l.revenue), 0)::text as revenue
          from leads l where l.timestamp >= ${todayStart} and ${where}`,
    ),
    rowsOf<{ minute: Date | string; calls: number }>(
      db,
      sql`select date_trunc('minute', l.timestamp) as minute, count(*)::int as calls
          from leads l where l.timestamp >= date_trunc('minute', now()) - interval '59 minutes'
            and ${where}
          group by 1`,
    ),
  ]);
  const at = new Map(perMinute.map((m, i) => [m.minute, i]));
  for (const m of minutes) {
    const i = at.get(new Date(m.minute).toISOString());
    if (i !== undefined) perMinute[i]!.calls = m.calls;
  }
  return {
    calls_today: today?.calls ?? 0,
    in_progress: today?.in_progress ?? 0,
    payable_today: today?.payable ?? 0,
    payout_today: toMoney(today?.payout ?? '0'),
    revenue_today: admin ? toMoney(today?.revenue ?? '0') : null,
    per_minute: perMinute,
  };
}

/** The streams' sessions that still live, with their users' status (one statement for all). */
export async function liveSessions(
  db: DbOrTx,
  sessionIds: string[],
): Promise<Map<string, { blocked: boolean }>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await rowsOf<{ id: string; status: string }>(
    db,
    sql`select s.id, u.status from auth_sessions s join users u on u.id = s.user_id
        where s.id in (${sql.join(
          sessionIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
  );
  return new Map(rows.map((r) => [r.id, { blocked: r.status === 'blocked' }]));
}
