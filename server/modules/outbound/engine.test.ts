import { and, eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Db, rowsOf } from '../../db/client.ts';
import {
  leads,
  mailOutbox,
  outboundAttempts,
  outboundDeliveries,
  postbackTemplates,
  webhookEndpoints,
} from '../../db/schema.ts';
import { ensureSettings } from '../../db/settings.ts';
import { createTestDatabase } from '../../test/build-test-app.ts';
import { buildAdmin, buildOffer, buildPublisher } from '../../test/factories.ts';
import { type Sink, startSink } from '../../test/http-sink.ts';
import { deliverDue, type EngineContext, runOutbound } from './engine.ts';
import { fanOut } from './fanout.ts';
import { releaseWaiting, sweepOldDeliveries, uuidV7Floor } from './housekeeping.ts';
import { PAUSE_AFTER_MS } from './retry.ts';
import { type OutboundPolicy, sendOutbound } from './safe-http.ts';
import { newWebhookSecret } from './signing.ts';

// The engine on its own database (no app, so no background worker): the clock is driven by
// each attempt's time, never by waiting.

let db: Db;
let close: () => Promise<void>;
let sink: Sink;
let adminId: string;
let adminEmail: string;
let publisherId: string;
let offerId: string;

beforeAll(async () => {
  const t = await createTestDatabase();
  db = t.database.db;
  close = async () => {
    await t.database.close();
    await t.drop();
  };
  await ensureSettings(db);
  const admin = await buildAdmin(db);
  adminId = admin.id;
  adminEmail = admin.email;
  publisherId = (await buildPublisher(db)).id;
  offerId = (await buildOffer(db)).id;
  sink = await startSink();
});
afterAll(async () => {
  await sink.close();
  await close();
});

beforeEach(async () => {
  await db.delete(webhookEndpoints);
  await db.execute(sql`delete from outbound_events`);
  sink.requests.length = 0;
  sink.answer = () => ({ status: 200, body: 'ok' });
});

const T0 = new Date('2030-01-01T00:00:00Z');
const engine = (now: Date, over: Partial<EngineContext> = {}): EngineContext => ({
  db,
  instance: 'test',
  allowPrivate: true,
  publicUrl: 'http://portal.test',
  now: () => now,
  random: () => 1,
  ...over,
});

async function endpoint(url = `${sink.url}/hook`) {
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ url, events: ['lead.created'], secret: newWebhookSecret(), createdBy: adminId })
    .returning();
  return row!;
}

/**
 * A lead (its lead.created event), fanned out into deliveries created at T0 (due then, except
 * those waiting for an earlier one of their lead).
 */
async function leadDelivery(at = T0) {
  const [lead] = await db
    .insert(leads)
    .values({ publisherId, offerId, payout: '12.50', status: 'approved' })
    .returning();
  await fanOut(db);
  await backdatePending(at);
  return lead!;
}

async function backdatePending(at: Date) {
  await db
    .update(outboundDeliveries)
    .set({
      nextAt: sql`case when ${outboundDeliveries.nextAt} is null then null else ${at.toISOString()}::timestamptz end`,
      retryFrom: at,
      createdAt: at,
    })
    .where(eq(outboundDeliveries.state, 'pending'));
}

/** `n` pending leads, fanned out into their deliveries (due now). */
async function pendingLeads(n: number) {
  for (let i = 0; i < n; i++) {
    await db.insert(leads).values({ publisherId, offerId, payout: '1.00', status: 'pending' });
  }
  await fanOut(db);
}

/** The sink got `n` requests, each delivery once, and the log says each delivered at once. */
async function expectEachSentOnce(endpointId: string, n: number) {
  const ids = sink.requests.map((r) => r.headers['webhook-id']);
  expect(ids).toHaveLength(n);
  expect(new Set(ids).size).toBe(n);
  const rows = await db
    .select()
    .from(outboundDeliveries)
    .where(eq(outboundDeliveries.endpointId, endpointId));
  expect(rows.every((d) => d.state === 'delivered' && d.attempts === 1)).toBe(true);
}

const deliveryOf = async (endpointId: string) => {
  const [d] = await db
    .select()
    .from(outboundDeliveries)
    .where(eq(outboundDeliveries.endpointId, endpointId));
  return d!;
};

describe('the delivery engine', () => {
  it('signs each delivery as Standard Webhooks says: the library verifies it and refuses a tampered body', async () => {
    const ep = await endpoint();
    const now = new Date();
    const lead = await leadDelivery(now);
    expect(await deliverDue(engine(now))).toBe(1);
    const [req] = sink.requests;
    const wh = new Webhook(ep.secret);
    const body = wh.verify(req!.body, req!.headers as Record<string, string>) as {
      type: string;
      data: { lead_id: string; payout: number; status: string };
    };
    expect(body.type).toBe('lead.created');
    expect(body.data).toMatchObject({ lead_id: lead.id, payout: 12.5, status: 'approved' });
    const tampered = req!.body.replace('12.5', '99.5');
    expect(() => wh.verify(tampered, req!.headers as Record<string, string>)).toThrow();
    expect((await deliveryOf(ep.id)).state).toBe('delivered');
  });

  it('retries a failing receiver with growing waits until it answers 2xx, logging every attempt', async () => {
    const ep = await endpoint();
    await leadDelivery();
    sink.answer = (_r, n) => (n < 3 ? { status: 500, body: 'down' } : { status: 204 });
    let now = T0;
    for (let i = 0; i < 3; i++) {
      expect(await deliverDue(engine(now))).toBe(1);
      const d = await deliveryOf(ep.id);
      if (d.state === 'delivered') break;
      // Not due before its next_at…
      expect(await deliverDue(engine(new Date(d.nextAt!.getTime() - 1)))).toBe(0);
      now = d.nextAt!;
    }
    const d = await deliveryOf(ep.id);
    expect(d).toMatchObject({ state: 'delivered', attempts: 3, lastStatus: 204 });
    const attempts = await db
      .select()
      .from(outboundAttempts)
      .where(eq(outboundAttempts.deliveryId, d.id));
    expect(attempts.map((a) => [a.attempt, a.status, a.responseBody])).toEqual([
      [1, 500, 'down'],
      [2, 500, 'down'],
      [3, 204, ''],
    ]);
    // The same event id on every attempt: the receiver's idempotency key.
    expect(new Set(sink.requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    // 5 s then 10 s (jitter at its top).
    expect(attempts[1]!.startedAt.getTime() - attempts[0]!.startedAt.getTime()).toBe(5000);
    expect(attempts[2]!.startedAt.getTime() - attempts[1]!.startedAt.getTime()).toBe(10_000);
  });

  it('waits as long as Retry-After asks when that is longer than its own backoff', async () => {
    const ep = await endpoint();
    await leadDelivery();
    sink.answer = () => ({ status: 503, headers: { 'retry-after': '120' } });
    await deliverDue(engine(T0));
    const d = await deliveryOf(ep.id);
    expect(d.nextAt!.getTime() - T0.getTime()).toBe(120_000);
  });

  it('pauses an endpoint after a day of failures, mails its owner once, and stops sending to it', async () => {
    const ep = await endpoint();
    await leadDelivery();
    sink.answer = () => ({ status: 500 });
    let now = T0;
    let sends = 0;
    while (sends < 100) {
      if ((await deliverDue(engine(now))) === 0) break;
      sends++;
      const d = await deliveryOf(ep.id);
      const [e] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id));
      if (e!.pausedAt || d.state !== 'pending') break;
      now = d.nextAt!;
    }
    const [e] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id));
    expect(e!.pausedAt).not.toBeNull();
    expect(e!.pausedAt!.getTime() - e!.failingSince!.getTime()).toBeGreaterThanOrEqual(
      PAUSE_AFTER_MS - 3_600_000,
    );
    const mails = await db.select().from(mailOutbox).where(eq(mailOutbox.to, adminEmail));
    expect(mails.filter((m) => m.subject.includes('paused'))).toHaveLength(1);
    // Paused: a new delivery waits, even when due.
    await leadDelivery();
    const before = sink.requests.length;
    expect(await deliverDue(engine(new Date(now.getTime() + 3_600_000)))).toBe(0);
    expect(sink.requests.length).toBe(before);
  });

  it('gives a delivery up after 24 hours of retries (the log says failed)', async () => {
    const ep = await endpoint();
    await leadDelivery();
    sink.answer = () => ({ status: 500 });
    let now = T0;
    for (let i = 0; i < 100; i++) {
      await deliverDue(engine(now));
      const d = await deliveryOf(ep.id);
      if (d.state !== 'pending') break;
      now = d.nextAt!;
      // Keep the endpoint running, to see the delivery's own limit.
      await db.update(webhookEndpoints).set({ failingSince: null });
    }
    const d = await deliveryOf(ep.id);
    expect(d.state).toBe('failed');
    expect(d.nextAt!.getTime() - T0.getTime()).toBeLessThanOrEqual(24 * 3_600_000);
    expect(d.attempts).toBeGreaterThan(10);
  });

  it('sends each delivery once when two instances work the same queue', async () => {
    const ep = await endpoint();
    await pendingLeads(60);
    const a = runOutbound({ ...engine(new Date()), now: undefined, instance: 'a', batch: 7 });
    const b = runOutbound({ ...engine(new Date()), now: undefined, instance: 'b', batch: 7 });
    const [na, nb] = await Promise.all([a, b]);
    expect(na + nb).toBe(60);
    await expectEachSentOnce(ep.id, 60);
  });

  it('while the call postbacks queue up, sends at the paced rate; once they no longer do, the rest at once', async () => {
    const ep = await endpoint();
    await pendingLeads(60);
    let pressed = true;
    const started = performance.now();
    const run = runOutbound({
      ...engine(new Date()),
      now: undefined,
      yieldRate: 20,
      pressed: () => pressed,
    });
    await new Promise((r) => setTimeout(r, 600));
    // 20 a second with a burst of 2: at most 2 + 20 × the time elapsed (a slow machine sends
    // fewer, never more).
    const elapsed = (performance.now() - started) / 1000;
    expect(sink.requests.length).toBeGreaterThan(0);
    expect(sink.requests.length).toBeLessThanOrEqual(2 + Math.ceil(20 * elapsed));
    pressed = false;
    expect(await run).toBe(60);
    await expectEachSentOnce(ep.id, 60);
  });

  it('takes a claim again once its lease ended (the instance that held it died)', async () => {
    const ep = await endpoint();
    await leadDelivery();
    const { claimDue } = await import('./engine.ts');
    expect(await claimDue(engine(T0, { instance: 'dead', leaseMs: 60_000 }), 10)).toHaveLength(1);
    expect(await deliverDue(engine(new Date(T0.getTime() + 30_000)))).toBe(0);
    expect(await deliverDue(engine(new Date(T0.getTime() + 60_000)))).toBe(1);
    expect((await deliveryOf(ep.id)).state).toBe('delivered');
  });
});

describe('safe outbound', () => {
  it('refuses private, loopback, metadata and names resolving to loopback unless allowed', async () => {
    const targets = [
      `${sink.url}/hook`,
      `http://localhost:${sink.port}/hook`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/hook',
      'http://[fd00:ec2::254]/hook',
      'http://[::1]/hook',
    ];
    for (const url of targets) await endpoint(url);
    await leadDelivery();
    await deliverDue(engine(T0, { allowPrivate: false }));
    expect(sink.requests).toHaveLength(0);
    const rows = await db
      .select()
      .from(outboundDeliveries)
      .where(eq(outboundDeliveries.attempts, 1));
    const errors = new Map(rows.map((r) => [r.url, r.lastError]));
    expect(errors.get(`${sink.url}/hook`)).toBe('127.0.0.1 is not a public address.');
    expect(errors.get(`http://localhost:${sink.port}/hook`)).toMatch(
      /localhost resolves to (127\.0\.0\.1|::1), which is not a public address/,
    );
    expect(errors.get('http://169.254.169.254/latest/meta-data/')).toMatch(/not a public address/);
    expect(errors.get('http://[fd00:ec2::254]/hook')).toMatch(/not a public address/);
    expect(errors.get('http://10.0.0.1/hook')).toMatch(/not a public address/);
    expect(errors.get('http://[::1]/hook')).toMatch(/not a public address/);
    // Allowed (OUTBOUND_ALLOW_PRIVATE=true): the local ones go through.
    await db
      .update(outboundDeliveries)
      .set({ nextAt: T0 })
      .where(eq(outboundDeliveries.state, 'pending'));
    await db.delete(webhookEndpoints).where(sql`url not like '%' || ${String(sink.port)} || '%'`);
    await deliverDue(engine(T0, { allowPrivate: true }));
    expect(sink.requests.length).toBe(2);
  });

  it('lets only the portal’s own dev sink (loopback, its port, /dev/sink/) through without the setting', async () => {
    const own = { allowPrivate: false, devSinkPort: sink.port };
    const send = (url: string, policy: OutboundPolicy) =>
      sendOutbound({ method: 'GET', url, headers: {}, body: null }, policy);
    const before = sink.requests.length;
    expect((await send(`${sink.url}/dev/sink/postback?call=1`, own)).status).toBe(200);
    expect((await send(`http://localhost:${sink.port}/dev/sink/webhook`, own)).status).toBe(200);
    expect(sink.requests.length).toBe(before + 2);
    // Another path of the same port, another port, or no dev sink served: refused as before.
    expect((await send(`${sink.url}/hook`, own)).error).toMatch(/not a public address/);
    expect((await send(`http://127.0.0.1:${sink.port + 1}/dev/sink/x`, own)).error).toMatch(
      /not a public address/,
    );
    expect((await send(`${sink.url}/dev/sink/x`, { allowPrivate: false })).error).toMatch(
      /not a public address/,
    );
    expect(sink.requests.length).toBe(before + 2);
  });
});

describe('postback order', () => {
  /** A lead's pending postbacks, in order: due, or waiting for the one before. */
  const waiting = async (leadId: string) =>
    (
      await db
        .select({ type: outboundDeliveries.eventType, nextAt: outboundDeliveries.nextAt })
        .from(outboundDeliveries)
        .where(
          and(eq(outboundDeliveries.orderingKey, leadId), eq(outboundDeliveries.state, 'pending')),
        )
        .orderBy(outboundDeliveries.eventSeq)
    ).map((d) => `${d.type}:${d.nextAt === null ? 'waiting' : 'due'}`);

  type PostbackEvent = (typeof postbackTemplates.$inferInsert)['event'];
  /** The publisher's postbacks on these events, each a GET to the sink that names it in `e`. */
  const postbacksOn = (...events: [PostbackEvent, string][]) =>
    db.insert(postbackTemplates).values(
      events.map(([event, e]) => ({
        publisherId,
        event,
        method: 'GET' as const,
        url: `${sink.url}/pb?e=${e}`,
      })),
    );
  afterEach(async () => {
    await db.delete(postbackTemplates);
  });

  it('holds a lead’s later postbacks, out of the due deliveries, while an earlier one is retried', async () => {
    await postbacksOn(['approved', 'approved'], ['status_changed', 'status']);
    sink.answer = (_r, n) => (n === 1 ? { status: 500 } : { status: 200 });
    const lead = await leadDelivery();
    // One event, two postbacks: the second waits with no due time.
    expect(await waiting(lead.id)).toEqual(['approved:due', 'status_changed:waiting']);
    await db.update(leads).set({ status: 'rejected' }).where(eq(leads.id, lead.id));
    await fanOut(db);
    await backdatePending(T0);
    expect(await waiting(lead.id)).toEqual([
      'approved:due',
      'status_changed:waiting',
      'status_changed:waiting',
    ]);
    // The first (approved) fails: nothing after it goes, however due.
    expect(await deliverDue(engine(T0))).toBe(1);
    expect(await deliverDue(engine(new Date(T0.getTime() + 1000)))).toBe(0);
    expect(await waiting(lead.id)).toEqual([
      'approved:due',
      'status_changed:waiting',
      'status_changed:waiting',
    ]);
    // Its retry answered, the two behind it go at once, in order, in the same turn.
    expect(await deliverDue(engine(new Date(T0.getTime() + 5000)))).toBe(3);
    const seen = sink.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('e'));
    expect(seen).toEqual(['approved', 'approved', 'status', 'status']);
    expect(await waiting(lead.id)).toEqual([]);
  });

  it('does not hold a postback behind one its batch skipped (approved fires once per lead)', async () => {
    await postbacksOn(
      ['approved', 'approved'],
      ['rejected', 'rejected'],
      ['status_changed', 'status'],
    );
    const lead = await leadDelivery();
    let now = T0;
    const drain = async () => {
      while ((await deliverDue(engine(now))) > 0) now = new Date(now.getTime() + 1);
    };
    await drain();
    for (const status of ['rejected', 'approved'] as const) {
      await db.update(leads).set({ status }).where(eq(leads.id, lead.id));
      await fanOut(db);
      await backdatePending(now);
      await drain();
    }
    // Approved again: its `approved` was fired already (skipped), its status_changed went.
    expect(await waiting(lead.id)).toEqual([]);
    const seen = sink.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('e'));
    expect(seen).toEqual(['approved', 'status', 'rejected', 'status', 'status']);
  });

  it('a record that finishes a postback makes the next due; the sweep frees one whose predecessor went', async () => {
    await postbacksOn(['approved', 'approved'], ['status_changed', 'status']);
    const held = await leadDelivery();
    const done = await leadDelivery();
    const gone = await leadDelivery();
    const first = (lead: string) =>
      sql`${outboundDeliveries.orderingKey} = ${lead} and ${outboundDeliveries.eventType} = 'approved'`;
    // Any statement that finishes a postback (the record, a replay's end) frees the next one
    // (drizzle/0052's trigger, which a fan-out racing the record waits for).
    await db.update(outboundDeliveries).set({ state: 'delivered' }).where(first(done.id));
    expect(await waiting(done.id)).toEqual(['status_changed:due']);
    // The retention sweep deleted a predecessor (no update, no trigger): the sweep frees it.
    await db.delete(outboundDeliveries).where(first(gone.id));
    expect(await waiting(gone.id)).toEqual(['status_changed:waiting']);
    expect(await releaseWaiting(db)).toBe(1);
    expect(await waiting(gone.id)).toEqual(['status_changed:due']);
    // `held` still has its first pending: its second keeps waiting.
    expect(await waiting(held.id)).toEqual(['approved:due', 'status_changed:waiting']);
    expect(await releaseWaiting(db)).toBe(0);
    await db.delete(outboundDeliveries).where(eq(outboundDeliveries.state, 'pending'));
  });
});

describe('the log’s retention', () => {
  it('deletes deliveries made more than 30 days ago with their attempts, and keeps the newer', async () => {
    await db.delete(outboundDeliveries);
    const ep = await endpoint();
    const now = new Date();
    const day = 24 * 3600_000;
    const made = async (daysAgo: number) => {
      const at = new Date(now.getTime() - daysAgo * day);
      const [d] = await db
        .insert(outboundDeliveries)
        .values({
          // The id a delivery made then has: uuid_v7 puts its millisecond first.
          id: uuidV7Floor(at.getTime()),
          kind: 'webhook',
          endpointId: ep.id,
          eventId: crypto.randomUUID(),
          eventType: 'lead.created',
          eventSeq: daysAgo,
          dedupeKey: `retention:${daysAgo}`,
          method: 'POST',
          url: `${sink.url}/hook`,
          state: 'delivered',
          createdAt: at,
        })
        .returning();
      await db.insert(outboundAttempts).values({
        deliveryId: d!.id,
        attempt: 1,
        startedAt: at,
        durationMs: 3,
        status: 200,
        requestHeaders: {},
      });
      return d!.id;
    };
    const old = await made(31);
    const young = await made(29);
    expect(await sweepOldDeliveries(db, now)).toBe(1);
    const left = await db.select({ id: outboundDeliveries.id }).from(outboundDeliveries);
    expect(left.map((r) => r.id)).toEqual([young]);
    const attempts = await db
      .select()
      .from(outboundAttempts)
      .where(eq(outboundAttempts.deliveryId, old));
    expect(attempts).toEqual([]);
    // A real id sorts between the floors of the milliseconds around it.
    const [{ id }] = (await rowsOf<{ id: string }>(db, sql`select uuid_v7()::text as id`)) as [
      { id: string },
    ];
    const t = Date.now();
    expect(uuidV7Floor(t - 60_000) < id && id < uuidV7Floor(t + 60_000)).toBe(true);
    await db.delete(outboundDeliveries);
  });
});

// Deleting an endpoint while the engine records a failed turn of its deliveries: the engine
// held the deliveries (its write) and then wanted the endpoint (its failure clock), the delete
// held the endpoint and wanted its deliveries (the cascade): PostgreSQL broke the deadlock by
// failing one of them. Both now take the endpoint first. (PGlite has one connection: no race.)
describe.skipIf(!process.env.TEST_DATABASE_URL)('deleting an endpoint during a record', () => {
  it('waits for the record, then deletes; neither fails', async () => {
    const ep = await endpoint();
    await leadDelivery();
    sink.answer = () => ({ status: 500, body: 'down' });
    let deleting: Promise<unknown> | undefined;
    const ctx = engine(T0, {
      betweenWrites: async () => {
        // (A drizzle query runs on each then: this one is run once, here.)
        deleting = db
          .delete(webhookEndpoints)
          .where(eq(webhookEndpoints.id, ep.id))
          .then(
            () => 'deleted',
            (err: Error) => err.message,
          );
        // Until the delete waits on a lock (the engine's), or a second passed.
        for (let i = 0; i < 20; i++) {
          const rows = await rowsOf<{ n: number }>(
            db,
            sql`select count(*)::int as n from pg_stat_activity
                where wait_event_type = 'Lock' and query like 'delete from "webhook_endpoints"%'`,
          );
          if (rows[0]!.n > 0) break;
          await new Promise((r) => setTimeout(r, 50));
        }
      },
    });
    expect(await deliverDue(ctx)).toBe(1);
    expect(await deleting).toBe('deleted');
    const left = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id));
    expect(left).toHaveLength(0);
  });
});
