import { sql } from 'drizzle-orm';
import { type Db, type DbOrTx, rowsOf } from '../../db/client.ts';
import { groupRows } from '../../db/rows.ts';
import { after, Pacer, underPressure } from '../../jobs/pressure.ts';
import { renderMail } from '../../mail/layout.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { getMailBrand } from '../../mail/templates.ts';
import { fanOut } from './fanout.ts';
import { backoffMs, PAUSE_AFTER_MS, RETRY_WINDOW_MS, retryAfterMs } from './retry.ts';
import { OUTBOUND_TIMEOUT_MS, type OutboundAnswer, sendOutbound } from './safe-http.ts';
import { webhookHeaders } from './signing.ts';

/**
 * The delivery engine (issue 30, item 3): our own queue table, `outbound_deliveries`, claimed
 * with `FOR UPDATE SKIP LOCKED` and a lease (`locked_until`), so several instances share it,
 * each delivery is sent by one of them, and a killed instance's claims are taken again once
 * the lease ends. At least once: a delivery is marked only after its answer, so a crash in
 * between sends it again, with the same `webhook-id`.
 */

export type EngineContext = {
  db: Db;
  /** This instance, as `locked_by` records it. */
  instance: string;
  allowPrivate: boolean;
  /** The portal's port while its dev sink is served (safe-http.ts, isOwnDevSink). */
  devSinkPort?: number;
  /** The portal's address, for the links of the pause mails. */
  publicUrl: string;
  /** The clock (tests drive it by attempt timestamps instead of waiting a day). */
  now?: () => Date;
  random?: () => number;
  /** How long a claim holds (default 20 s: the 10 s timeout and the answer's write fit). */
  leaseMs?: number;
  /** Deliveries claimed at once. */
  batch?: number;
  /** Sends in flight at once (each instance). */
  concurrency?: number;
  /** Tests: called in a turn with failures, between its write and its failure clocks. */
  betweenWrites?: () => Promise<void>;
  /**
   * Deliveries a second while the call postbacks queue up (`pressed`); 0 = never slow down.
   * Default OUTBOUND_YIELD_RATE.
   */
  yieldRate?: number;
  /** Whether the call postbacks queue up now (default: server/jobs/pressure.ts's mark). */
  pressed?: () => boolean;
  /** New events are waiting (a NOTIFY at their commit): a run going on looks again at once. */
  subscribe?: (onEvents: () => void) => () => void;
};

/**
 * Deliveries a second per instance while the call postbacks queue up (OUTBOUND_YIELD_RATE's
 * default). Measured on 2 cores at c=50 (bench/ingest-yield-2026-11-28.md).
 */
export const OUTBOUND_YIELD_RATE = 200;
/** While pressed, answers are recorded in turns of this many, or after FLUSH_WAIT_MS. */
const PRESSED_TURN = 64;
const PRESSED_FLUSH_WAIT_MS = 100;

type Claimed = {
  id: string;
  kind: 'webhook' | 'postback';
  endpoint_id: string | null;
  publisher_id: string | null;
  event_id: string;
  method: string;
  url: string;
  body: string | null;
  /** A lead's postbacks go in order: its record makes the next due (drizzle/0052). */
  ordering_key: string | null;
  attempts: number;
  retry_from: string | Date;
  /** A webhook's signing secrets now. */
  secrets?: string[];
};

type Outcome = {
  id: string;
  attempt: number;
  started_at: string;
  duration_ms: number;
  status: number | null;
  error: string | null;
  response_body: string;
  request_headers: Record<string, string>;
  state: 'pending' | 'delivered' | 'failed';
  next_at: string;
};

/**
 * Claims up to `limit` due deliveries for this instance (each by one instance only), with the
 * deliveries waiting behind them (a lead's later postbacks, `next_at` null) and the secrets
 * that sign a webhook now (two while a rotation overlaps): one statement. Answers them as
 * chains: each due delivery first, then those of its ordering key in order.
 */
export async function claimDue(ctx: EngineContext, limit: number): Promise<Claimed[][]> {
  const now = (ctx.now ?? (() => new Date()))();
  const at = now.toISOString();
  const until = new Date(now.getTime() + (ctx.leaseMs ?? 20_000));
  // outbound_due (drizzle/0036): the due deliveries in order, each waiting while an earlier
  // one of its lead is pending or its endpoint (publisher) is off or paused; locked, skipped
  // when another instance holds them. The followers (drizzle/0051) go with them, so a lead's
  // next postback is sent after the answer to its first without waiting for a release.
  const rows = await rowsOf<Claimed & { keys: (string | null)[] | null; seq: number }>(
    ctx.db,
    sql`
    with heads as materialized (
      select id from outbound_due(${at}::timestamptz, ${limit}::int) as due(id)),
    keys as materialized (
      select array_agg(h.ordering_key) as k from outbound_deliveries h
      where h.id = any(array(select id from heads)) and h.ordering_key is not null),
    followers as materialized (
      select w.id from outbound_deliveries w
      where w.ordering_key = any((select k from keys)::text[])
        and w.state = 'pending' and w.next_at is null
      for update of w skip locked)
    update outbound_deliveries d
    set locked_until = ${until.toISOString()}::timestamptz, locked_by = ${ctx.instance}
    from (select id from heads union all select id from followers) c
    where d.id = c.id
    returning d.id, d.kind, d.endpoint_id, d.publisher_id, d.event_id, d.method, d.url, d.body,
      d.ordering_key, d.event_seq as seq, d.attempts, d.retry_from,
      (select array[e.secret, case when e.previous_secret_expires_at > ${at}::timestamptz
                                   then e.previous_secret end]
       from webhook_endpoints e where e.id = d.endpoint_id) as keys`,
  );
  const chains = groupRows(
    rows,
    (d) => d.ordering_key ?? `id:${d.id}`,
    ({ keys, ...d }) => ({ ...d, seq: Number(d.seq), secrets: keys?.filter((k) => k !== null) }),
  );
  return [...chains.values()].map((c) =>
    c.sort((a, b) => a.seq - b.seq).map(({ seq: _s, ...d }) => d),
  );
}

/** The request headers of one delivery's attempt. */
export function headersOf(d: Claimed, secrets: string[] | undefined, now: Date) {
  if (d.kind === 'webhook') {
    return webhookHeaders(
      secrets ?? [],
      d.event_id,
      Math.floor(now.getTime() / 1000),
      d.body ?? '',
    );
  }
  return {
    'webhook-id': d.event_id,
    ...(d.body !== null && { 'content-type': 'application/json' }),
  };
}

/** What becomes of a delivery after an answer. */
export function outcomeOf(
  d: Claimed,
  answer: OutboundAnswer,
  at: Date,
  random: () => number,
): Pick<Outcome, 'state' | 'next_at'> {
  const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
  if (ok) return { state: 'delivered', next_at: at.toISOString() };
  const wait = Math.max(
    backoffMs(d.attempts + 1, random),
    retryAfterMs(answer.retryAfter, at) ?? 0,
  );
  const next = new Date(at.getTime() + wait);
  const end = new Date(d.retry_from).getTime() + RETRY_WINDOW_MS;
  return next.getTime() > end
    ? { state: 'failed', next_at: at.toISOString() }
    : { state: 'pending', next_at: next.toISOString() };
}

/** Sends one claimed delivery; its attempt and what becomes of the delivery. */
async function sendOne(ctx: EngineContext, d: Claimed) {
  const at = (ctx.now ?? (() => new Date()))();
  const headers = headersOf(d, d.secrets, at);
  const answer = await sendOutbound(
    { method: d.method, url: d.url, headers, body: d.body },
    { allowPrivate: ctx.allowPrivate, devSinkPort: ctx.devSinkPort },
  );
  return {
    id: d.id,
    attempt: d.attempts + 1,
    started_at: at.toISOString(),
    duration_ms: answer.durationMs,
    status: answer.status,
    error: answer.error,
    response_body: answer.body,
    request_headers: headers,
    ...outcomeOf(d, answer, at, ctx.random ?? Math.random),
  } satisfies Outcome;
}

/**
 * Sends a chain in order, each after the answer to the one before; stops at the first that is
 * not delivered (the rest wait for its retry), or once `sendBy` (performance.now()) passed.
 * Each answer goes to `answered` as it comes; answers the deliveries not sent.
 */
async function sendChain(
  ctx: EngineContext,
  chain: Claimed[],
  answered: (d: Claimed, o: Outcome) => void,
  sendBy = Number.POSITIVE_INFINITY,
): Promise<Claimed[]> {
  for (const [i, d] of chain.entries()) {
    if (i > 0 && performance.now() > sendBy) return chain.slice(i);
    const o = await sendOne(ctx, d);
    answered(d, o);
    if (o.state !== 'delivered') return chain.slice(i + 1);
  }
  return [];
}

/** Claims, sends (each chain at once) and records one batch; answers how many were sent. */
export async function deliverDue(ctx: EngineContext): Promise<number> {
  const chains = await claimDue(ctx, ctx.batch ?? 100);
  if (chains.length === 0) return 0;
  const claimed: Claimed[] = [];
  const outcomes: Outcome[] = [];
  const unsent = (
    await Promise.all(
      chains.map((c) =>
        sendChain(ctx, c, (d, o) => {
          claimed.push(d);
          outcomes.push(o);
        }),
      ),
    )
  ).flat();
  await record(ctx, claimed, outcomes);
  await letGo(
    ctx,
    unsent.map((d) => d.id),
  );
  return claimed.length;
}

/** Claims not sent are let go at once (not after their lease). */
async function letGo(ctx: EngineContext, ids: string[]) {
  if (ids.length === 0) return;
  await ctx.db.execute(sql`update outbound_deliveries set locked_until = null, locked_by = null
    where id = any(${`{${ids.join(',')}}`}::uuid[]) and locked_by = ${ctx.instance}`);
}

/**
 * Writes the answers in one statement: the attempts, the deliveries, and the failure clocks
 * of the endpoints (publishers) that answered 2xx; then, only when some failed, their clocks
 * and pauses, in the same transaction.
 */
async function record(ctx: EngineContext, claimed: Claimed[], outcomes: Outcome[]) {
  const json = JSON.stringify(
    outcomes.map((o, i) => {
      const d = claimed[i] as Claimed;
      const ok = o.state === 'delivered';
      return {
        ...o,
        ok_endpoint: ok && d.kind === 'webhook' ? d.endpoint_id : null,
        ok_publisher: ok && d.kind === 'postback' ? d.publisher_id : null,
      };
    }),
  );
  const endpoints = [...new Set(claimed.map((d) => d.endpoint_id).filter((e) => e !== null))];
  // Lock order: the endpoints first (in id order), then their deliveries, as deleting an
  // endpoint does (the row, then its deliveries by cascade). Recording deliveries first and
  // then an endpoint's failure clock deadlocked with a delete now and then. KEY SHARE keeps
  // a delete out until this commits and lets other instances' writes through.
  const write = async (db: DbOrTx) => {
    await db.execute(sql`
      with locked as materialized (
        select id from webhook_endpoints
        where id = any(${`{${endpoints.join(',')}}`}::uuid[])
        order by id for key share),
      r as materialized (
        select * from jsonb_to_recordset(${json}::jsonb) as r(id uuid, attempt int,
          started_at timestamptz, duration_ms int, status int, error text, response_body text,
          request_headers jsonb, state text, next_at timestamptz, ok_endpoint uuid,
          ok_publisher uuid)
        where (select count(*) from locked) >= 0),
      attempts as (
        insert into outbound_attempts (delivery_id, attempt, started_at, duration_ms, status,
          error, response_body, request_headers)
        select id, attempt, started_at, duration_ms, status, error, response_body, request_headers
        from r),
      deliveries as (
        update outbound_deliveries d
        set state = r.state, next_at = r.next_at, attempts = r.attempt,
            last_status = r.status, last_error = r.error, last_duration_ms = r.duration_ms,
            delivered_at = case when r.state = 'delivered' then r.started_at end,
            locked_until = null, locked_by = null
        from r where d.id = r.id),
      endpoints as (
        update webhook_endpoints set failing_since = null
        where id in (select ok_endpoint from r) and failing_since is not null)
      update postback_targets set failing_since = null
      where publisher_id in (select ok_publisher from r) and failing_since is not null`);
  };
  if (outcomes.every((o) => o.state === 'delivered')) return write(ctx.db);
  await ctx.db.transaction(async (tx) => {
    await write(tx);
    await ctx.betweenWrites?.();
    await keepFailureClocks(ctx, tx, claimed, outcomes);
  });
}

/**
 * A success clears its endpoint's (or publisher's) failure clock; a failure starts it, and a
 * failure a day after it started (or a delivery giving up after its day of retries) pauses the
 * endpoint and mails its owner, once.
 */
async function keepFailureClocks(
  ctx: EngineContext,
  tx: DbOrTx,
  claimed: Claimed[],
  outcomes: Outcome[],
) {
  const ok = new Set<string>();
  /** The failure's time, and whether a delivery gave up (a day of its own retries failed). */
  const failed = new Map<string, { at: string; gaveUp: boolean }>();
  claimed.forEach((d, i) => {
    const o = outcomes[i] as Outcome;
    const target = d.kind === 'webhook' ? `w:${d.endpoint_id}` : `p:${d.publisher_id}`;
    if (o.state === 'delivered') ok.add(target);
    else {
      const was = failed.get(target);
      failed.set(target, {
        at: was?.at ?? o.started_at,
        gaveUp: !!was?.gaveUp || o.state === 'failed',
      });
    }
  });
  for (const target of ok) failed.delete(target);
  for (const [target, { at, gaveUp }] of failed) {
    const id = target.slice(2);
    // Failing for a day pauses; so does a delivery giving up (its retries spanned the day).
    const cutoff = gaveUp ? at : new Date(new Date(at).getTime() - PAUSE_AFTER_MS).toISOString();
    if (target.startsWith('w:')) {
      const paused = await rowsOf<{ url: string; email: string | null }>(
        tx,
        sql`update webhook_endpoints e
          set failing_since = coalesce(e.failing_since, ${at}::timestamptz),
              paused_at = case when e.paused_at is null
                and coalesce(e.failing_since, ${at}::timestamptz) <= ${cutoff}::timestamptz
                then ${at}::timestamptz else e.paused_at end
          where e.id = ${id}::uuid
          returning e.url, (e.paused_at = ${at}::timestamptz) as just_paused,
            (select email from users where id = e.created_by) as email`,
      );
      const row = paused[0] as { url: string; email: string | null; just_paused?: boolean };
      if (row?.just_paused && row.email) {
        await mailPause(ctx, tx, row.email, row.url, '/admin/webhooks');
      }
    } else {
      const paused = await rowsOf<{ just_paused: boolean; email: string }>(
        tx,
        sql`insert into postback_targets as t (publisher_id, failing_since)
          values (${id}::uuid, ${at}::timestamptz)
          on conflict (publisher_id) do update set
            failing_since = coalesce(t.failing_since, excluded.failing_since),
            paused_at = case when t.paused_at is null
              and coalesce(t.failing_since, excluded.failing_since) <= ${cutoff}::timestamptz
              then ${at}::timestamptz else t.paused_at end
          returning (t.paused_at = ${at}::timestamptz) as just_paused,
            (select email from users where id = t.publisher_id) as email`,
      );
      if (paused[0]?.just_paused) {
        await mailPause(ctx, tx, paused[0].email, 'your postback URLs', '/dashboard/profile');
      }
    }
  }
}

async function mailPause(ctx: EngineContext, tx: DbOrTx, to: string, what: string, path: string) {
  const brand = await getMailBrand(tx);
  const { html, text } = renderMail(brand, {
    heading: 'Deliveries paused after a day of failures',
    paragraphs: [
      `Every delivery to ${what} failed for 24 hours, so ${brand.companyName} paused them.`,
      'Undelivered events wait. Fix the receiver, then turn the deliveries back on: they resume, and the delivery log shows each answer.',
    ],
    action: { label: 'Open the delivery log', url: `${ctx.publicUrl}${path}` },
  });
  await enqueueMail(tx, { to, subject: 'Deliveries paused after a day of failures', html, text });
}

/**
 * One run of the worker, a pipeline: up to `concurrency` sends in flight, the next batch
 * claimed while they go (at most twice that many claimed and unsent), the answers recorded in
 * one statement per turn while the sends go on, and the fan-out beside it all. It ends when
 * nothing is due, `stopping()` turns true, or `budgetMs` passed (the next run goes on).
 */
export async function runOutbound(
  ctx: EngineContext,
  stopping: () => boolean = () => false,
  budgetMs = 5000,
): Promise<number> {
  const began = performance.now();
  const most = ctx.concurrency ?? 128;
  const batch = ctx.batch ?? 250;
  // A claim is sent only while its lease still holds the timeout and the answer's write.
  const sendBy = (ctx.leaseMs ?? 20_000) - OUTBOUND_TIMEOUT_MS - 2000;
  // Foreground first (server/jobs/pressure.ts): while the call postbacks queue up, sends are
  // paced, answers recorded in bigger turns and new events fanned out only when nothing else
  // is due; the backlog goes at full speed once they no longer queue.
  const pressed = ctx.pressed ?? underPressure;
  const rate = ctx.yieldRate ?? OUTBOUND_YIELD_RATE;
  const pacer = rate > 0 ? new Pacer(rate) : undefined;
  const yielding = () => pacer !== undefined && pressed();
  let paced: (() => void) | undefined;
  let flushLater: (() => void) | undefined;
  let draining = false;
  const queue: { chain: Claimed[]; claimedAt: number }[] = [];
  const answered: { d: Claimed; o: Outcome }[] = [];
  const unsent: string[] = [];
  let inFlight = 0;
  let sent = 0;
  let recording: Promise<void> | undefined;
  let fanning: Promise<void> | undefined;
  let fanned = true;
  let starved = false;
  let failure: unknown;
  let wakeUp: (() => void) | undefined;
  const poke = () => {
    wakeUp?.();
    wakeUp = undefined;
  };

  const flush = (now = false) => {
    if (recording || answered.length === 0) return;
    if (!now && !draining && answered.length < PRESSED_TURN && yielding()) {
      flushLater ??= after(PRESSED_FLUSH_WAIT_MS, () => {
        flushLater = undefined;
        flush(true);
        poke();
      });
      return;
    }
    const turn = answered.splice(0);
    recording = record(
      ctx,
      turn.map((a) => a.d),
      turn.map((a) => a.o),
    )
      .then(() => {
        sent += turn.length;
        // An answer can free a lead's next postback: claim again.
        starved = false;
      })
      .catch((err) => {
        failure ??= err;
      })
      .finally(() => {
        recording = undefined;
        flush();
        poke();
      });
  };
  const pump = () => {
    while (inFlight < most && queue.length > 0) {
      const { chain, claimedAt } = queue[0] as (typeof queue)[number];
      if (stopping() || performance.now() - claimedAt > sendBy) {
        queue.shift();
        unsent.push(...chain.map((d) => d.id));
        continue;
      }
      if (yielding()) {
        const wait = (pacer as Pacer).take(chain.length);
        if (wait > 0) {
          paced ??= after(wait, () => {
            paced = undefined;
            pump();
            poke();
          });
          return;
        }
      }
      queue.shift();
      inFlight++;
      const answer = (d: Claimed, o: Outcome) => {
        answered.push({ d, o });
        flush();
      };
      // A chain stopped by a failure lets the rest go at once: its head's retry claims them
      // again (a follower still locked here would be skipped, and then not released).
      void sendChain(ctx, chain, answer, claimedAt + sendBy)
        .then((rest) =>
          letGo(
            ctx,
            rest.map((d) => d.id),
          ),
        )
        .then(
          () => {
            inFlight--;
            pump();
            poke();
          },
          (err) => {
            inFlight--;
            failure ??= err;
            poke();
          },
        );
    }
  };
  const fan = () => {
    if (fanning || !fanned) return;
    fanning = fanOut(ctx.db)
      .then((n) => {
        fanned = n > 0;
        if (n > 0) starved = false;
      })
      .catch((err) => {
        failure ??= err;
      })
      .finally(() => {
        fanning = undefined;
        poke();
      });
  };

  const off = ctx.subscribe?.(() => {
    starved = false;
    fanned = true;
    // Pressed, the events wait until nothing else is due (the claim below fans out then).
    if (!yielding()) fan();
    poke();
  });
  try {
    return await pipeline();
  } finally {
    off?.();
    paced?.();
    flushLater?.();
  }

  async function pipeline() {
    fan();
    for (;;) {
      if (failure !== undefined) break;
      const open = !stopping() && performance.now() - began < budgetMs;
      const room = Math.min(batch, 2 * most - queue.length - inFlight);
      if (open && !starved && room >= Math.min(batch, most)) {
        const claimedAt = performance.now();
        let claimed: Claimed[][];
        try {
          claimed = await claimDue(ctx, room);
          for (const chain of claimed) queue.push({ chain, claimedAt });
        } catch (err) {
          failure ??= err;
          break;
        }
        if (claimed.length < room) {
          starved = true;
          fanned = true;
          fan();
        }
        pump();
        continue;
      }
      if (!open) pump(); // a stop sets the queue aside
      const idle = queue.length === 0 && inFlight === 0 && !recording && answered.length === 0;
      if (idle && !fanning && (starved || !open)) break;
      await new Promise<void>((r) => {
        wakeUp = r;
      });
    }
    // Wait for what is under way; claims set aside are let go at once (not after their lease).
    draining = true;
    flush();
    while (inFlight > 0 || recording || fanning) {
      await new Promise<void>((r) => {
        wakeUp = r;
      });
      flush();
    }
    unsent.push(...queue.splice(0).flatMap((q) => q.chain.map((d) => d.id)));
    await letGo(ctx, unsent);
    if (failure !== undefined) throw failure;
    return sent;
  }
}
