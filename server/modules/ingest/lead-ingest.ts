import { timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  BILLABLE_EVENT,
  type CallInput,
  eventRank,
  type IngestAnswer,
  minutesOf,
  statusForEvent,
} from '../../../contract/integrations.ts';
import { hashSecretKey, newSecretKey } from '../../auth/secret-keys.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { notePressure } from '../../jobs/pressure.ts';
import { MicroBatcher } from './micro-batch.ts';

/**
 * One call event into one lead (issues 13 and 26): the postback endpoint, the admin's replay
 * of a refused call and the test console (in a rolled-back transaction) all come here. The
 * postback is read into a CallInput by server/modules/ingest/mapping.ts first.
 */

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const asUuid = (s: string) => (uuidShape.test(s) ? s.toLowerCase() : null);

type Row = Record<string, unknown>;
const rowsOf = (r: unknown): Row[] => (r as { rows: Row[] }).rows;

/** 422 with the reason a person can act on. */
export const unprocessable = (code: string, message: string) =>
  new AppError(code, message, { status: 422 });

/**
 * Inserts the call's lead, or moves the existing one (same integration and call id) forward,
 * and judges it by its offer's rules, all in one round trip: the `ingest_call` function
 * (drizzle/0013_offer_rules.sql).
 *
 * Events: status, event and payout follow only an event that ranks at least as high as the
 * lead's; duration only grows; empty details (caller, recording, …) are filled from any event.
 * A repeated or older event changes nothing, so concurrent and re-sent postbacks are safe
 * (events of one call are serialized by an advisory lock on the call).
 *
 * Rules (issue 13, item 4) are judged once, at the first billable event (`completed`,
 * `converted` or `payout`), in this order, the first that fails giving the reason:
 * billable duration buffer (a call without a duration counts as 0 s), allowed states (an
 * unknown state fails a restricted offer), open hours (in the offer's time zone, at the call's
 * time), duplicate window (another payable call of the same caller, by its last 10 digits, to
 * the same offer less than N×24 h before or after), then the caps (daily and monthly, offer and
 * per publisher, days and months of the network's time zone, taken last so that a refused call
 * never uses a slot). Payable → `approved`; refused → `rejected`; not judged yet → `pending`
 * (or `rejected` for a tracker error). Later events do not judge again, except when the
 * duration grows past the buffer after a "short" verdict. A status set by hand
 * (`status_overridden_at`) is never changed and never judged. Payout: the admin's per-publisher
 * payout on the offer, else the tracker's, else the offer's.
 */
export async function upsertCall(opts: {
  db: DbOrTx;
  /** The integration that received the request. */
  integrationId: string;
  /**
   * The integration whose id the call is kept under (integrations.call_scope): integrations of
   * one tracker account share calls. Defaults to integrationId.
   */
  scope?: string | undefined;
  call: CallInput;
  /**
   * The integration's `updated_at` as the caller read it, as text (to the microsecond), from
   * its key cache: the call is written only if the integration still has it and is not revoked,
   * checked in the same statement. Otherwise nothing is written and StaleIntegration is thrown.
   */
  unchangedSince?: string | undefined;
  /**
   * Write it with the calls arriving at the same time (see callBatcher): the postback endpoint.
   * `db` must then be the application's database, not a transaction.
   */
  batched?: boolean | undefined;
}): Promise<IngestAnswer> {
  const args = callArgs(
    opts.scope ?? opts.integrationId,
    opts.integrationId,
    opts.call,
    opts.unchangedSince,
  );
  const row = opts.batched
    ? await callBatcher(opts.db as Db).submit(args)
    : await writeCall(opts.db, args);
  const answer = answerOf(row, opts.call);
  if (opts.batched) {
    const written = { id: answer.id, caller: args.caller, tracking: args.tracking };
    for (const listener of writtenListeners) listener(opts.db as Db, written);
  }
  return answer;
}

/** A call the postback endpoint wrote (after its commit): the lead and its numbers. */
export type WrittenCall = { id: string; caller: string | null; tracking: string | null };
const writtenListeners = new Set<(db: Db, call: WrittenCall) => void>();

/**
 * Tells `listener` of each call the postback endpoint writes, after the write (the fraud rules,
 * server/modules/fraud, evaluate them in batches of their own). It must not throw or wait.
 */
export function onCallWritten(listener: (db: Db, call: WrittenCall) => void): () => void {
  writtenListeners.add(listener);
  return () => writtenListeners.delete(listener);
}

/** Everything ingest_call takes, by name (the batch sends these as a JSON array). */
type CallArgs = {
  /** The call scope: the lead's integration_id. */
  integration: string;
  /** The integration that received it (the guard's, and its external ids first). */
  source: string;
  call_id: string;
  event: string;
  rank: number;
  billable: number;
  publisher: string | null;
  publisher_id: string | null;
  offer: string | null;
  offer_id: string | null;
  caller: string | null;
  tracking: string | null;
  seconds: number | null;
  minutes: number;
  revenue: string | null;
  payout: string | null;
  recording: string | null;
  state: string | null;
  zip: string | null;
  ts: string | null;
  tags: unknown;
  status: string;
  reason: string | null;
  unchanged_since: string | null;
};

function callArgs(
  scope: string,
  source: string,
  call: CallInput,
  unchangedSince?: string,
): CallArgs {
  const { status, reason } = statusForEvent(call.event, call.eventNote);
  const seconds = call.durationSeconds;
  return {
    integration: scope,
    source,
    call_id: call.callId,
    event: call.event,
    rank: eventRank(call.event),
    billable: eventRank(BILLABLE_EVENT),
    publisher: call.publisher,
    publisher_id: call.publisher === null ? null : asUuid(call.publisher),
    offer: call.offer,
    offer_id: call.offer === null ? null : asUuid(call.offer),
    caller: call.caller,
    tracking: call.trackingNumber,
    seconds,
    minutes: seconds === null ? 0 : minutesOf(seconds),
    revenue: call.revenue === null ? null : String(call.revenue),
    payout: call.payout === null ? null : String(call.payout),
    recording: call.recordingUrl,
    state: call.state,
    zip: call.zip,
    ts: call.timestamp ? call.timestamp.toISOString() : null,
    tags: call.tags ?? null,
    status,
    reason: reason ?? null,
    unchanged_since: unchangedSince ?? null,
  };
}

/** ingest_call's answer; `failed` only from a batch ('stale', or the error of that call). */
type CallRow = {
  out_id: unknown;
  out_status: unknown;
  out_missing: unknown;
  out_failed?: unknown;
};

/** One call in its own statement (and, outside a transaction, its own commit). */
async function writeCall(db: DbOrTx, a: CallArgs): Promise<CallRow> {
  // The guard is an uncorrelated condition, so PostgreSQL checks it once, before the function
  // runs (a one-time filter): a revoked or changed integration writes nothing.
  const guard = a.unchanged_since
    ? sql` where exists (select 1 from integrations where id = ${a.source}::uuid
        and updated_at = ${a.unchanged_since}::timestamptz and revoked_at is null)`
    : sql``;
  const result = await db.execute(sql`
    select out_id, out_status, out_missing from ingest_call(
      ${a.integration}::uuid, ${a.source}::uuid, ${a.call_id}::text, ${a.event}::text,
      ${a.rank}::smallint, ${a.billable}::smallint,
      ${a.publisher}::text, ${a.publisher_id}::uuid,
      ${a.offer}::text, ${a.offer_id}::uuid,
      ${a.caller}::text, ${a.tracking}::text, ${a.seconds}::int, ${a.minutes}::int,
      ${a.revenue}::numeric, ${a.payout}::numeric, ${a.recording}::text,
      ${a.state}::text, ${a.zip}::text, ${a.ts}::timestamptz,
      ${JSON.stringify(a.tags)}::jsonb, ${a.status}::text, ${a.reason}::text)${guard}`);
  const [row] = rowsOf(result);
  if (!row) throw new StaleIntegration();
  return row as CallRow;
}

/**
 * Batches of calls in flight at once per database, and calls per batch (see 0022). Two, not
 * four: fewer transactions at once wait less on the rows every approved call updates (its
 * publisher's balance, the lead totals), and batches grow. c=50 on 2 cores, vacuumed database,
 * two runs each: 4 in flight 1,416 / 1,260 req/s, p99 83 / 101 ms; 2 in flight 2,034 / 2,367
 * req/s, p99 42 / 39 ms (bench/ingest-2026-11-26.md).
 */
export const CALL_BATCH_IN_FLIGHT = 2;
/** Under 64, so a batch's subtransactions stay in PostgreSQL's per-backend cache. */
export const CALL_BATCH_MAX = 32;

const batchers = new WeakMap<object, MicroBatcher<CallArgs, CallRow>>();

/**
 * The database's call batcher: calls that arrive while earlier batches are being written leave
 * together, as one `ingest_calls` statement (drizzle/0022) and one commit; the batch's new leads
 * are inserted by one statement inside it (drizzle/0062). A call its batch could not write (its
 * subtransaction failed, or the whole statement did) is written again on its own, so it gets
 * exactly the answer or error it would have had alone.
 */
function callBatcher(db: Db): MicroBatcher<CallArgs, CallRow> {
  let b = batchers.get(db);
  if (!b) {
    b = new MicroBatcher<CallArgs, CallRow>(
      async (items) => {
        if (items.length === 1) return [await writeCall(db, items[0]!)];
        let rows: CallRow[];
        try {
          rows = rowsOf(
            await db.execute(sql`
              select ord, out_id, out_status, out_missing, out_failed
              from ingest_calls(${JSON.stringify(items)}::jsonb) order by ord`),
          ) as CallRow[];
        } catch {
          rows = items.map(() => ({
            out_id: null,
            out_status: null,
            out_missing: null,
            out_failed: 'batch',
          }));
        }
        return Promise.all(
          items.map(async (item, i) => {
            const row = rows[i];
            if (!row || (row.out_failed && row.out_failed !== 'stale')) return writeCall(db, item);
            return row;
          }),
        );
      },
      // Calls waiting for a batch: the deliveries slow down meanwhile (server/jobs/pressure.ts).
      { maxInFlight: CALL_BATCH_IN_FLIGHT, maxBatch: CALL_BATCH_MAX, onBacklog: notePressure },
    );
    batchers.set(db, b);
  }
  return b;
}

/** Batches sent and calls they carried since start, for this database (tests, metrics). */
export function callBatchCounts(db: Db): { batches: number; items: number } {
  return { ...(batchers.get(db)?.sent ?? { batches: 0, items: 0 }) };
}

/** The endpoint's answer from ingest_call's row, or the 422 a person can act on. */
function answerOf(row: CallRow, call: CallInput): IngestAnswer {
  if (row.out_failed === 'stale') throw new StaleIntegration();
  if (row.out_id)
    return { id: String(row.out_id), status: row.out_status as IngestAnswer['status'] };
  const number = call.trackingNumber;
  const viaNumber = number
    ? `its tracking number ${number} is not assigned (Tracking numbers screen)`
    : 'it carries no tracking number either';
  if (row.out_missing === 'publisher') {
    throw unprocessable(
      'unknown_publisher',
      call.publisher === null
        ? `No publisher: the call names none and ${viaNumber}.`
        : `No publisher matches "${call.publisher}": attach this external publisher id to a publisher on the Integrations screen, or send our publisher id.`,
    );
  }
  throw unprocessable(
    'unknown_offer',
    call.offer === null
      ? `No offer: the call names none and ${viaNumber}.`
      : `No offer matches "${call.offer}": attach this external campaign id to an offer on the Integrations screen, or send our offer id.`,
  );
}

/** The integration changed (or was revoked) since the caller read it: nothing was written. */
export class StaleIntegration extends Error {
  constructor() {
    super('The integration changed since it was read.');
  }
}

/** A new integration key: `ik_` + 32 random bytes (256 bits) in base64url. */
export const newIntegrationKey = (): string => newSecretKey('ik_');

/** What is stored of a key: its SHA-256 in hex (the key is random, so no salt is needed). */
export const hashIntegrationKey = hashSecretKey;

/** Compares two stored-form hashes without leaking where they differ. */
export function sameKeyHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What the endpoint answers: the lead, or a refusal with its status, code and sentence. */
export type IngestOutcome =
  | {
      status: 200;
      answer: IngestAnswer;
      /** Answer TwiML, not JSON: the tracker's call-flow request (TrackerPreset.twimlWhen). */
      twiml?: boolean;
    }
  | { status: number; code: string; message: string; details?: Record<string, string[]> };
