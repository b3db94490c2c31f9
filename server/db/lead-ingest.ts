import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  type CallInput,
  eventRank,
  type FieldMap,
  type IngestAnswer,
  minutesOf,
  readCallParams,
  statusForEvent,
} from '../../contract/integrations.ts';
import { AppError } from '../errors.ts';
import type { DbOrTx } from './client.ts';

/**
 * One call event into one lead (issue 13): the postback endpoint and the admin's replay of a
 * refused call both come here. Shared by two areas, so it lives beside the schema.
 */

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const asUuid = (s: string) => (uuidShape.test(s) ? s.toLowerCase() : null);

type Row = Record<string, unknown>;
const rowsOf = (r: unknown): Row[] => (r as { rows: Row[] }).rows;

/** 422 with the reason a person can act on. */
export const unprocessable = (code: string, message: string) =>
  new AppError(code, message, { status: 422 });

/**
 * The publisher and offer a postback names: an external id attached on this integration first,
 * else our own id. As SQL, so the upsert can take it inline.
 */
function resolved(integrationId: string, call: CallInput) {
  return sql`
    select
      coalesce(
        (select m.publisher_id from integration_external_ids m
          where m.integration_id = ${integrationId} and m.kind = 'publisher'
            and m.external_id = ${call.publisher}),
        (select u.id from users u where u.id = ${asUuid(call.publisher)}::uuid and u.role = 'publisher')
      ) as publisher_id,
      coalesce(
        (select m.offer_id from integration_external_ids m
          where m.integration_id = ${integrationId} and m.kind = 'offer'
            and m.external_id = ${call.offer}),
        (select o.id from offers o where o.id = ${asUuid(call.offer)}::uuid)
      ) as offer_id`;
}

/**
 * Inserts the call's lead, or moves the existing one (same integration and call id) forward:
 * status, event and payout follow only an event that ranks at least as high as the lead's;
 * duration only grows; empty details (caller, recording, …) are filled from any event. A
 * repeated or older event changes nothing, so concurrent and re-sent postbacks are safe.
 */
export async function upsertCall(opts: {
  db: DbOrTx;
  integrationId: string;
  call: CallInput;
}): Promise<IngestAnswer> {
  const { db, integrationId, call } = opts;
  const rank = eventRank(call.event);
  const { status, reason } = statusForEvent(call.event);
  const seconds = call.durationSeconds;
  const minutes = seconds === null ? 0 : minutesOf(seconds);
  const tags = JSON.stringify(call.tags);
  const ts = call.timestamp ? call.timestamp.toISOString() : null;
  // "Newer or equal" decides whose value wins; an older event only fills what is empty.
  const ahead = sql`excluded.event_rank >= leads.event_rank`;
  const pick = (col: string) =>
    sql`case when ${ahead} then coalesce(excluded.${sql.raw(col)}, leads.${sql.raw(col)})
             else coalesce(leads.${sql.raw(col)}, excluded.${sql.raw(col)}) end`;
  const next = {
    event_rank: sql`greatest(leads.event_rank, excluded.event_rank)`,
    status: sql`case when excluded.event_rank > leads.event_rank then excluded.status else leads.status end`,
    status_reason: sql`case when excluded.event_rank > leads.event_rank then excluded.status_reason else leads.status_reason end`,
    last_event: sql`case when excluded.event_rank > leads.event_rank then excluded.last_event else leads.last_event end`,
    duration_seconds: sql`greatest(leads.duration_seconds, excluded.duration_seconds)`,
    call_duration: sql`greatest(leads.call_duration, excluded.call_duration)`,
    payout: sql`case when ${ahead} then coalesce(${call.payout}::numeric, leads.payout) else leads.payout end`,
    revenue: pick('revenue'),
    caller: pick('caller'),
    tracking_number: pick('tracking_number'),
    recording_url: pick('recording_url'),
    state: pick('state'),
    zip: pick('zip'),
    tags: sql`case when ${ahead} then coalesce(leads.tags, '{}'::jsonb) || excluded.tags
                   else excluded.tags || coalesce(leads.tags, '{}'::jsonb) end`,
    timestamp: sql`least(leads."timestamp", ${ts}::timestamptz)`,
  };
  const cols = Object.keys(next);
  const setList = sql.join(
    cols.map(
      (c) =>
        sql`${sql.raw(c === 'timestamp' ? '"timestamp"' : c)} = ${next[c as keyof typeof next]}`,
    ),
    sql`, `,
  );
  // Only a real change writes the row (and fires the totals triggers); else nothing returns.
  const changed = sql`(${sql.join(
    cols.map((c) => sql.raw(`leads.${c === 'timestamp' ? '"timestamp"' : c}`)),
    sql`, `,
  )}) is distinct from (${sql.join(
    cols.map((c) => next[c as keyof typeof next]),
    sql`, `,
  )})`;

  const result = await db.execute(sql`
    with r as (${resolved(integrationId, call)})
    insert into leads (
      publisher_id, offer_id, payout, status, status_reason, call_duration, duration_seconds,
      "timestamp", integration_id, external_call_id, caller, tracking_number, revenue,
      recording_url, state, zip, tags, event_rank, last_event, last_event_at
    )
    select
      r.publisher_id, r.offer_id,
      coalesce(${call.payout}::numeric, (select payout from offers where id = r.offer_id)),
      ${status}::text, ${reason}::text, ${minutes}::int, ${seconds}::int,
      coalesce(${ts}::timestamptz, now()), ${integrationId}::uuid, ${call.callId}::text,
      ${call.caller}::text, ${call.trackingNumber}::text, ${call.revenue}::numeric,
      ${call.recordingUrl}::text, ${call.state}::text, ${call.zip}::text, ${tags}::jsonb,
      ${rank}::smallint, ${call.event}::text, now()
    from r
    where r.publisher_id is not null and r.offer_id is not null
    on conflict (integration_id, external_call_id) do update set ${setList},
      last_event_at = now()
    where ${changed}
    returning id, status`);
  const [row] = rowsOf(result);
  if (row) return { id: String(row.id), status: row.status as IngestAnswer['status'] };

  // Nothing written: either the call is known and this event changes nothing, or the
  // publisher/offer is unknown.
  const known = rowsOf(
    await db.execute(sql`
      select id, status from leads
      where integration_id = ${integrationId} and external_call_id = ${call.callId}`),
  )[0];
  if (known) return { id: String(known.id), status: known.status as IngestAnswer['status'] };
  const [names] = rowsOf(await db.execute(resolved(integrationId, call)));
  if (!names?.publisher_id) {
    throw unprocessable(
      'unknown_publisher',
      `No publisher matches "${call.publisher}": attach this external publisher id to a publisher on the Integrations screen, or send our publisher id.`,
    );
  }
  throw unprocessable(
    'unknown_offer',
    `No offer matches "${call.offer}": attach this external campaign id to an offer on the Integrations screen, or send our offer id.`,
  );
}

/** A new integration key: `ik_` + 32 random bytes (256 bits) in base64url. */
export function newIntegrationKey(): string {
  return `ik_${randomBytes(32).toString('base64url')}`;
}

/** What is stored of a key: its SHA-256 in hex (the key is random, so no salt is needed). */
export function hashIntegrationKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Compares two stored-form hashes without leaking where they differ. */
export function sameKeyHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What the endpoint answers: the lead, or a refusal with its status, code and sentence. */
export type IngestOutcome =
  | { status: 200; answer: IngestAnswer }
  | { status: number; code: string; message: string; details?: Record<string, string[]> };

/**
 * A postback's parameters (query and body merged, key already checked) into a lead: a bad
 * field is a 400 naming it, an unknown publisher/offer a 422 with the reason. The endpoint and
 * the admin's replay of a refused call both answer with this.
 */
export async function ingestParams(opts: {
  db: DbOrTx;
  integrationId: string;
  fieldMap: FieldMap;
  params: Record<string, unknown>;
}): Promise<IngestOutcome> {
  const read = readCallParams(opts.params, opts.fieldMap);
  if (!read.ok) {
    return {
      status: 400,
      code: 'validation_failed',
      message: read.message,
      details: { [read.field]: [read.message] },
    };
  }
  try {
    const answer = await upsertCall({
      db: opts.db,
      integrationId: opts.integrationId,
      call: read.call,
    });
    return { status: 200, answer };
  } catch (err) {
    if (err instanceof AppError && err.status === 422) {
      return { status: 422, code: err.code, message: err.message };
    }
    throw err;
  }
}
