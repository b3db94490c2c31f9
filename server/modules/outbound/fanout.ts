import { sql } from 'drizzle-orm';
import {
  type LeadEventData,
  type PostbackEvent,
  webhookEventTypes,
} from '../../../contract/outbound.ts';
import { type Db, type DbOrTx, rowsOf } from '../../db/client.ts';
import { getSettings } from '../../db/settings.ts';
import { last4, type PostbackFacts, renderPostback } from './postback-template.ts';

/**
 * The fan-out: events of the outbox (`outbound_events`) into deliveries, one per subscribed
 * webhook endpoint and one per matching postback template, in the events' order, then the
 * events deleted, all in one transaction. One instance at a time (a transaction-scoped
 * advisory lock), so a lead's deliveries are written in the order of its events.
 */

const FANOUT_LOCK = 30_001;
const DEFAULT_BATCH = 1000;

type EventRow = {
  seq: string | number;
  id: string;
  type: string;
  lead_id: string | null;
  data: Record<string, unknown>;
  created_at: string | Date;
  publisher_id: string | null;
  offer_id: string | null;
  offer_name: string | null;
  external_call_id: string | null;
  duration_seconds: number | null;
  state: string | null;
  caller: string | null;
  tags: Record<string, unknown> | null;
};

type NewDelivery = {
  kind: 'webhook' | 'postback';
  endpoint_id: string | null;
  publisher_id: string | null;
  event_id: string;
  event_type: string;
  event_seq: number;
  dedupe_key: string;
  ordering_key: string | null;
  method: string;
  url: string;
  body: string | null;
};

type Template = {
  publisher_id: string;
  offer_id: string | null;
  event: PostbackEvent;
  method: string;
  url: string;
  body: string | null;
};

const iso = (v: string | Date) => new Date(v).toISOString();
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** The `data` of a lead event's webhook. */
function leadData(e: EventRow, currency: string): LeadEventData {
  const d = e.data;
  return {
    lead_id: e.lead_id as string,
    publisher_id: e.publisher_id as string,
    offer_id: e.offer_id as string,
    offer_name: e.offer_name,
    status: String(d.status),
    previous_status: (d.previous_status as string | null) ?? null,
    status_reason: (d.status_reason as string | null) ?? null,
    payout: Number(d.payout),
    previous_payout: num(d.previous_payout),
    currency,
    call_id: e.external_call_id,
    duration_seconds: e.duration_seconds,
    state: e.state,
    timestamp: iso(e.created_at),
  };
}

/** Which postback events a lead event fires (see the README: "When a postback fires"). */
export function postbackEventsOf(type: string, data: Record<string, unknown>): PostbackEvent[] {
  const out: PostbackEvent[] = [];
  const status = data.status;
  const changed =
    type === 'lead.status_changed' || (type === 'lead.created' && status !== 'pending');
  if (changed && status === 'approved') out.push('approved');
  if (changed && status === 'rejected') out.push('rejected');
  if (changed) out.push('status_changed');
  if (
    type === 'lead.payout_changed' ||
    (type === 'lead.status_changed' && num(data.previous_payout) !== num(data.payout))
  ) {
    out.push('payout_changed');
  }
  return out;
}

/** Fans out up to `limit` events; answers how many were read (0: none, or another instance). */
export async function fanOut(db: Db, limit = DEFAULT_BATCH): Promise<number> {
  return db.transaction(async (tx) => {
    const [lock] = await rowsOf<{ ok: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(${FANOUT_LOCK}) as ok`,
    );
    if (!lock?.ok) return 0;
    const events = await rowsOf<EventRow>(
      tx,
      sql`
        with ev as (
          delete from outbound_events
          where seq in (select seq from outbound_events order by seq limit ${limit})
          returning *)
        select ev.seq, ev.id, ev.type, ev.lead_id, ev.data, ev.created_at,
               l.publisher_id, l.offer_id, o.title as offer_name, l.external_call_id,
               l.duration_seconds, l.state, l.caller, l.tags
        from ev
        left join leads l on l.id = ev.lead_id
        left join offers o on o.id = l.offer_id
        order by ev.seq`,
    );
    if (events.length === 0) return 0;
    const rows = await deliveriesOf(tx, events);
    await insertDeliveries(tx, rows);
    return events.length;
  });
}

async function deliveriesOf(tx: DbOrTx, events: EventRow[]): Promise<NewDelivery[]> {
  const settings = await getSettings(tx);
  const endpoints = await rowsOf<{ id: string; url: string; events: string[] }>(
    tx,
    sql`select id, url, events from webhook_endpoints where enabled`,
  );
  const publishers = [...new Set(events.map((e) => e.publisher_id).filter((p) => p !== null))];
  const templates = publishers.length
    ? await rowsOf<Template>(
        tx,
        sql`select publisher_id, offer_id, event, method, url, body from postback_templates
            where publisher_id = any(${`{${publishers.join(',')}}`}::uuid[])`,
      )
    : [];
  const templateFor = (pub: string, offer: string, event: PostbackEvent) =>
    templates.find((t) => t.publisher_id === pub && t.offer_id === offer && t.event === event) ??
    templates.find((t) => t.publisher_id === pub && t.offer_id === null && t.event === event);

  const out: NewDelivery[] = [];
  for (const e of events) {
    const seq = Number(e.seq);
    const isLead = e.lead_id !== null;
    if (isLead && e.publisher_id === null) continue; // the lead was deleted since
    const data = isLead ? leadData(e, settings.currency) : e.data;
    if ((webhookEventTypes as readonly string[]).includes(e.type)) {
      const body = JSON.stringify({ type: e.type, timestamp: iso(e.created_at), data });
      for (const ep of endpoints) {
        if (!ep.events.includes(e.type)) continue;
        out.push({
          kind: 'webhook',
          endpoint_id: ep.id,
          publisher_id: null,
          event_id: e.id,
          event_type: e.type,
          event_seq: seq,
          dedupe_key: `w:${ep.id}:${e.id}`,
          ordering_key: null,
          method: 'POST',
          url: ep.url,
          body,
        });
      }
    }
    if (!isLead) continue;
    const lead = data as LeadEventData;
    for (const [rank, pe] of postbackEventsOf(e.type, e.data).entries()) {
      const t = templateFor(lead.publisher_id, lead.offer_id, pe);
      if (!t) continue;
      const facts: PostbackFacts = {
        call_id: lead.lead_id,
        tracker_call_id: lead.call_id ?? '',
        offer_id: lead.offer_id,
        offer_name: lead.offer_name ?? '',
        payout: lead.payout.toFixed(2),
        currency: lead.currency,
        status: lead.status,
        reason: lead.status_reason ?? '',
        duration: lead.duration_seconds === null ? '' : String(lead.duration_seconds),
        state: lead.state ?? '',
        caller_last4: last4(e.caller),
        timestamp: lead.timestamp,
        event: pe,
        tags: e.tags ?? {},
      };
      const req = renderPostback(t, facts, settings.postbackTags);
      // approved and rejected fire once per lead; a change, once per event.
      const once = pe === 'approved' || pe === 'rejected' ? lead.lead_id : e.id;
      out.push({
        kind: 'postback',
        endpoint_id: null,
        publisher_id: lead.publisher_id,
        event_id: e.id,
        event_type: pe,
        // The lead's order: its events' order, then the postbacks of one event in turn.
        event_seq: seq * 4 + rank,
        dedupe_key: `p:${lead.publisher_id}:${once}:${pe}`,
        ordering_key: lead.lead_id,
        ...req,
      });
    }
  }
  return out;
}

/**
 * Inserts deliveries in chunks; a key already written (a postback already fired) is skipped.
 * A delivery with an earlier one of its ordering key pending (in the table, or written before
 * it here) is written waiting (`next_at` null): a claim takes it behind that one, or that one's
 * record makes it due (the trigger of drizzle/0052), so the claim never walks past it.
 */
export async function insertDeliveries(tx: DbOrTx, rows: NewDelivery[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    // n: the order here, for which of two rows with one key is written.
    const chunk = rows.slice(i, i + 500).map((d, n) => ({ ...d, n }));
    await tx.execute(sql`
      with r as (
        select r.*, row_number() over (partition by r.dedupe_key order by r.n) = 1
            and not exists (select 1 from outbound_deliveries x where x.dedupe_key = r.dedupe_key)
            as fresh
        from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb)
          as r(kind text, endpoint_id uuid, publisher_id uuid, event_id uuid, event_type text,
            event_seq bigint, dedupe_key text, ordering_key text, method text, url text,
            body text, n int)),
      f as (
        select r.*, min(r.event_seq) filter (where r.fresh)
            over (partition by r.ordering_key) < r.event_seq as behind_here
        from r)
      insert into outbound_deliveries (kind, endpoint_id, publisher_id, event_id, event_type,
        event_seq, dedupe_key, ordering_key, method, url, body, next_at)
      select kind, endpoint_id, publisher_id, event_id, event_type, event_seq, dedupe_key,
        ordering_key, method, url, body,
        case when ordering_key is not null and (behind_here or exists (
            select 1 from outbound_deliveries p
            where p.state = 'pending' and p.ordering_key = f.ordering_key
              and p.event_seq < f.event_seq
            -- Locked: a record finishing it waits for this commit, then its trigger
            -- (drizzle/0052) sees this follower. One a record (or a claim) holds now is
            -- skipped, never waited for (a record waiting here while this waited for another
            -- of its rows would deadlock): the follower is then written due, and the claim's
            -- order filter holds it while that one is still pending.
            for share skip locked))
          then null else now() end
      from f where fresh
      on conflict (dedupe_key) do nothing`);
  }
}
