import { and, eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLABLE_EVENT, type CallEvent, eventRank } from '../../../contract/integrations.ts';
import { rowsOf } from '../../db/client.ts';
import {
  ingestRefusals,
  integrations,
  leadEvents,
  leads,
  publisherBalances,
} from '../../db/schema.ts';
import { clearPressure, underPressure } from '../../jobs/pressure.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { buildBuyer, buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';
import { sendInHeldBatches } from '../../test/held-batches.ts';
import { flushIngestUsage } from './calls.routes.ts';
import { CALL_BATCH_IN_FLIGHT, CALL_BATCH_MAX, callBatchCounts } from './lead-ingest.ts';

/**
 * POST/GET /api/v1/ingest/calls as a call tracker sends them (issue 13): fields, errors, keys,
 * source addresses, idempotency and event order.
 */

let t: AdminTestContext;
let pub: TestUser;
let offer: Awaited<ReturnType<typeof buildOffer>>;
let key: string;
let integrationId: string;

const ingest = (opts: {
  method?: 'GET' | 'POST';
  query?: Record<string, string>;
  body?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  ip?: string;
}) => {
  const headers: Record<string, string> = { ...opts.headers };
  const req: InjectOptions = {
    method: opts.method ?? (opts.body || opts.form ? 'POST' : 'GET'),
    url: '/api/v1/ingest/calls',
    query: opts.query,
    headers,
    remoteAddress: opts.ip ?? '203.0.113.10',
  };
  if (opts.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    req.payload = new URLSearchParams(opts.form).toString();
  } else if (opts.body !== undefined) {
    req.payload = opts.body as InjectOptions['payload'];
  }
  return t.app.inject(req);
};

let seq = 0;
const callId = () => `CA${Date.now().toString(36)}${seq++}`;
const base = () => ({ call_id: callId(), publisher: pub.id, offer: offer.id });

const leadOf = async (externalCallId: string) => {
  const rows = await t.db
    .select()
    .from(leads)
    .where(and(eq(leads.integrationId, integrationId), eq(leads.externalCallId, externalCallId)));
  return rows;
};

beforeAll(async () => {
  t = await setupAdminTest();
  pub = await buildPublisher(t.db, { name: 'Pixel Pat' });
  offer = await buildOffer(t.db, { title: 'Auto Insurance', payout: '30.00' });
  const res = await t.call('POST', '/integrations', { body: { name: 'Ringba production' } });
  expect(res.statusCode).toBe(201);
  key = res.json().key;
  integrationId = res.json().integration.id;
});
afterAll(() => t.close());

describe('accepted calls', () => {
  it('takes a GET pixel with every field and the key as a parameter, and answers {id,status}', async () => {
    const id = callId();
    const res = await ingest({
      query: {
        key,
        call_id: id,
        event: 'completed',
        publisher: pub.id,
        offer: offer.id,
        caller: '+15551234567',
        tracking_number: '+18005550100',
        duration: '95',
        revenue: '45.5',
        payout: '$20.00',
        recording_url: 'https://media.example.com/rec/1.mp3',
        state: 'tx',
        zip: '73301',
        timestamp: '2026-11-20T10:00:00Z',
        utm_source: 'google',
      },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['id', 'status']);
    // A completed call of an offer without rules pays (rules.test.ts: each rule).
    expect(body.status).toBe('approved');
    const [lead] = await leadOf(id);
    expect(lead).toMatchObject({
      id: body.id,
      publisherId: pub.id,
      offerId: offer.id,
      status: 'approved',
      durationSeconds: 95,
      callDuration: 2, // 95 s shows as "2 min" in lists (a started minute counts)
      caller: '+15551234567',
      trackingNumber: '+18005550100',
      revenue: '45.50',
      payout: '20.00',
      recordingUrl: 'https://media.example.com/rec/1.mp3',
      state: 'TX',
      zip: '73301',
      lastEvent: 'completed',
      tags: { utm_source: 'google' },
    });
    expect(lead!.timestamp.toISOString()).toBe('2026-11-20T10:00:00.000Z');
    // A time-ordered id (UUIDv7, drizzle/0017): its first 48 bits are the creation time in ms.
    expect(body.id[14]).toBe('7');
    const createdMs = Number.parseInt(body.id.replace(/-/g, '').slice(0, 12), 16);
    expect(Math.abs(createdMs - Date.now())).toBeLessThan(60_000);
  });

  it('takes POST JSON with the key in x-api-key; the payout defaults to the offer', async () => {
    const call = base();
    const res = await ingest({ body: { ...call, duration: 30 }, headers: { 'x-api-key': key } });
    expect(res.statusCode).toBe(200);
    const [lead] = await leadOf(call.call_id);
    expect(lead).toMatchObject({ payout: '30.00', durationSeconds: 30, callDuration: 1 });
    // No event means the tracker's one "call ended" pixel: completed.
    expect(lead!.lastEvent).toBe('completed');
  });

  it('takes POST form-urlencoded with the key as a form field', async () => {
    const call = base();
    const res = await ingest({ form: { ...call, key, event: 'incoming', caller: '5551112222' } });
    expect(res.statusCode).toBe(200);
    const [lead] = await leadOf(call.call_id);
    // Kept in E.164 (issue 26), the number as sent kept as a tag.
    expect(lead).toMatchObject({
      lastEvent: 'incoming',
      caller: '+15551112222',
      tags: { caller_raw: '5551112222' },
    });
  });

  it('treats empty parameters (tokens the tracker could not fill) as not sent', async () => {
    const call = base();
    const res = await ingest({
      query: { ...call, key, duration: '', revenue: '', zip: '', recording_url: '' },
    });
    expect(res.statusCode).toBe(200);
    const [lead] = await leadOf(call.call_id);
    expect(lead).toMatchObject({ durationSeconds: null, revenue: null, zip: null });
  });

  it('accepts Unix seconds as the timestamp', async () => {
    const call = base();
    const res = await ingest({ query: { ...call, key, timestamp: '1763900000' } });
    expect(res.statusCode).toBe(200);
    const [lead] = await leadOf(call.call_id);
    expect(lead!.timestamp.getTime()).toBe(1763900000 * 1000);
  });

  it('marks a payout event approved and an error event rejected, with the reason', async () => {
    const paid = base();
    expect((await ingest({ query: { ...paid, key, event: 'payout' } })).json().status).toBe(
      'approved',
    );
    const failed = base();
    const res = await ingest({ query: { ...failed, key, event: 'error' } });
    expect(res.json().status).toBe('rejected');
    const [lead] = await leadOf(failed.call_id);
    expect(lead!.statusReason).toBe('The tracker reported a failed call.');
  });

  it('never changes a status a person set by hand, while later events still add details', async () => {
    const call = base();
    await ingest({ query: { ...call, key, event: 'incoming' } });
    const [lead] = await leadOf(call.call_id);
    await t.db
      .update(leads)
      .set({ status: 'rejected', statusReason: 'Rejected by hand', statusOverriddenAt: new Date() })
      .where(eq(leads.id, lead!.id));
    const res = await ingest({ query: { ...call, key, event: 'payout', duration: '300' } });
    expect(res.json().status).toBe('rejected');
    const [after] = await leadOf(call.call_id);
    expect(after).toMatchObject({
      status: 'rejected',
      statusReason: 'Rejected by hand',
      lastEvent: 'payout',
      durationSeconds: 300,
    });
  });
});

describe('refused calls', () => {
  const refusalCount = async () => (await t.db.select().from(ingestRefusals)).length;

  it.each([
    [{ call_id: '' }, 'call_id'],
    [{ event: 'ringing' }, 'event'],
    [{ duration: '-5' }, 'duration'],
    [{ duration: 'ten' }, 'duration'],
    [{ duration: '90000' }, 'duration'],
    [{ revenue: 'lots' }, 'revenue'],
    [{ payout: '-1' }, 'payout'],
    [{ timestamp: 'yesterday' }, 'timestamp'],
    [{ timestamp: '2999-01-01T00:00:00Z' }, 'timestamp'],
  ])('answers 400 naming the field for %j', async (over, field) => {
    const before = await refusalCount();
    const res = await ingest({ query: { ...base(), key, ...over } });
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('validation_failed');
    expect(error.message.startsWith(`${field}:`)).toBe(true);
    expect(error.details[field]).toHaveLength(1);
    expect(await refusalCount()).toBe(before + 1);
  });

  it('keeps a call whose details cannot be read: the detail empty, what was sent kept as a tag', async () => {
    const call = base();
    const res = await ingest({
      query: {
        ...call,
        key,
        caller: 'anonymous',
        recording_url: 'ftp://x/y.mp3',
        state: 'x'.repeat(51),
        zip: '1'.repeat(21),
      },
    });
    expect(res.statusCode).toBe(200);
    const [lead] = await leadOf(call.call_id);
    expect(lead).toMatchObject({ caller: null, recordingUrl: null, state: null, zip: null });
    expect(lead!.tags).toMatchObject({
      caller_raw: 'anonymous',
      recording_url_raw: 'ftp://x/y.mp3',
      zip_raw: '1'.repeat(21),
    });
  });

  it('answers 422 naming what is missing for a new call without a publisher or an offer', async () => {
    const { publisher: _p, ...noPublisher } = base();
    const p = await ingest({ query: { ...noPublisher, key } });
    expect(p.statusCode).toBe(422);
    expect(p.json().error.message).toBe(
      'No publisher: the call names none and it carries no tracking number either.',
    );
    const { offer: _o, ...noOffer } = base();
    const o = await ingest({ query: { ...noOffer, key, tracking_number: '+18005550199' } });
    expect(o.statusCode).toBe(422);
    expect(o.json().error.message).toBe(
      'No offer: the call names none and its tracking number +18005550199 is not assigned (Tracking numbers screen).',
    );
  });

  it('answers 401 without a key, with a wrong key, and with a JWT instead of a key', async () => {
    const none = await ingest({ query: base() });
    expect(none.statusCode).toBe(401);
    expect(none.json().error.message).toContain('x-api-key');
    const wrong = await ingest({ query: { ...base(), key: 'ik_not-a-real-key' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toEqual({
      code: 'invalid_key',
      message: 'This integration key is not valid.',
    });
    const jwt = await ingest({
      query: base(),
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    expect(jwt.statusCode).toBe(401);
  });

  it('answers 422 with the reason for an unknown publisher or offer', async () => {
    const p = await ingest({ query: { ...base(), key, publisher: 'RB-PUB-404' } });
    expect(p.statusCode).toBe(422);
    expect(p.json().error.code).toBe('unknown_publisher');
    expect(p.json().error.message).toContain('"RB-PUB-404"');
    const o = await ingest({ query: { ...base(), key, offer: 'CA-999' } });
    expect(o.statusCode).toBe(422);
    expect(o.json().error.code).toBe('unknown_offer');
    // A buyer's id is not a publisher.
    const buyer = await buildBuyer(t.db);
    const b = await ingest({ query: { ...base(), key, publisher: buyer.id } });
    expect(b.json().error.code).toBe('unknown_publisher');
  });

  it('keeps the raw request of a refused call, without the key', async () => {
    const id = callId();
    await ingest({
      method: 'POST',
      query: { key },
      body: { call_id: id, publisher: 'RB-PUB-7', offer: offer.id },
      headers: { 'x-api-key': key, 'user-agent': 'Ringba/1.0' },
    });
    const rows = await t.db.select().from(ingestRefusals);
    const row = rows.find((r) => (r.body as { call_id?: string } | null)?.call_id === id)!;
    expect(row).toMatchObject({
      integrationId,
      httpStatus: 422,
      code: 'unknown_publisher',
      method: 'POST',
      query: {},
      body: { call_id: id, publisher: 'RB-PUB-7', offer: offer.id },
      ip: '203.0.113.10',
    });
    expect(row.headers['user-agent']).toBe('Ringba/1.0');
    expect(JSON.stringify(row)).not.toContain(key);
  });
});

describe('idempotency and event order', () => {
  it('makes one lead of the same event sent 20 times at once', async () => {
    const call = { ...base(), event: 'completed', duration: '61' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => ingest({ query: { ...call, key } })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    expect(await leadOf(call.call_id)).toHaveLength(1);
  });

  it('writes calls that arrive while others are being written in shared batches, each its own lead with its own answer, and marks the wait', async () => {
    // On both drivers: the database is slow to answer writes (reads are not held), so the
    // first calls stay in flight while all the others reach the batcher; then it answers.
    // PGlite answers each query before the next request is read, so without the hold every
    // call would leave alone there and this could not fail.
    const n = 120;
    const db = t.app.db;
    const calls = Array.from({ length: n }, (_, i) => ({
      ...base(),
      event: 'completed',
      duration: String(60 + i),
    }));
    // A lone call first: the key and the phone country are then read from their caches.
    expect((await ingest({ query: { ...base(), key } })).statusCode).toBe(200);
    clearPressure();
    const before = callBatchCounts(db);
    const answers = await sendInHeldBatches(
      db,
      n,
      () => Promise.all(calls.map((c) => ingest({ body: c, headers: { 'x-api-key': key } }))),
      () => {
        expect(callBatchCounts(db).batches - before.batches).toBe(CALL_BATCH_IN_FLIGHT);
        // Calls wait for a batch: the deliveries slow down meanwhile (server/jobs/pressure.ts).
        expect(underPressure()).toBe(true);
      },
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(n).fill(200));
    const after = callBatchCounts(db);
    expect(after.items - before.items).toBe(n);
    // The first calls alone, then the ones that waited, in full batches.
    expect(after.batches - before.batches).toBe(
      CALL_BATCH_IN_FLIGHT + Math.ceil((n - CALL_BATCH_IN_FLIGHT) / CALL_BATCH_MAX),
    );
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(n);
    for (const [i, c] of calls.entries()) {
      const [lead] = await leadOf(c.call_id);
      expect(lead?.id).toBe(answers[i]!.json().id);
      expect(lead?.durationSeconds).toBe(60 + i);
    }
  });

  // On PostgreSQL, real concurrency alone folds calls: those that arrive while others are
  // being written go together, with nothing held back.
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'writes 120 calls sent at once in shared batches on PostgreSQL, each its own lead with its own answer',
    async () => {
      const before = callBatchCounts(t.app.db);
      const calls = Array.from({ length: 120 }, (_, i) => ({
        ...base(),
        event: 'completed',
        duration: String(60 + i),
      }));
      const answers = await Promise.all(
        calls.map((c) => ingest({ body: c, headers: { 'x-api-key': key } })),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array(120).fill(200));
      const after = callBatchCounts(t.app.db);
      expect(after.items - before.items).toBe(120);
      expect(after.batches - before.batches).toBeLessThan(60);
      for (const [i, c] of calls.entries()) {
        const [lead] = await leadOf(c.call_id);
        expect(lead?.id).toBe(answers[i]!.json().id);
        expect(lead?.durationSeconds).toBe(60 + i);
      }
    },
  );

  it("inserts a batch's new calls together, and its calls still see each other: one lead per call, a duplicate caller refused, each paid once", async () => {
    // drizzle/0062: a batch keeps its new calls' rows and inserts them in one statement. A later
    // event of a kept call and a second call of a kept caller must still find the first.
    const dupOffer = await buildOffer(t.db, { duplicateDays: 3, payout: '12.00' });
    const seller = await buildPublisher(t.db, { name: 'Batch Bea' });
    const item = (callIdOf: string, event: CallEvent, caller: string, seconds: number | null) => ({
      integration: integrationId,
      source: integrationId,
      call_id: callIdOf,
      event,
      rank: eventRank(event),
      billable: eventRank(BILLABLE_EVENT),
      publisher: seller.id,
      publisher_id: seller.id,
      offer: dupOffer.id,
      offer_id: dupOffer.id,
      caller,
      seconds,
      minutes: seconds === null ? 0 : Math.ceil(seconds / 60),
      tags: {},
      status: 'pending',
    });
    const [a, b, c] = [callId(), callId(), callId()];
    const rows = await rowsOf<{ ord: number; out_id: string | null; out_status: string | null }>(
      t.db,
      sql`select ord, out_id, out_status, out_failed from ingest_calls(${JSON.stringify([
        // Call c is call b's caller: judged while b is kept, so b is written first.
        item(b, 'completed', '+13105550102', 120),
        item(c, 'completed', '+13105550102', 200),
        // Call a's later event comes while a is kept: a is written first, then moved forward.
        item(a, 'incoming', '+13105550101', null),
        item(a, 'completed', '+13105550101', 95),
      ])}::jsonb) order by ord`,
    );
    expect(rows.map((r) => r.ord)).toEqual([0, 1, 2, 3]);
    const [leadA] = await leadOf(a);
    const [leadB] = await leadOf(b);
    const [leadC] = await leadOf(c);
    expect(await leadOf(a)).toHaveLength(1);
    // Both events of call a answer with its one lead, which the later event moved forward.
    expect(rows[2]!.out_id).toBe(leadA!.id);
    expect(rows[3]).toMatchObject({ out_id: leadA!.id, out_status: 'approved' });
    expect(leadA).toMatchObject({
      status: 'approved',
      durationSeconds: 95,
      lastEvent: 'completed',
    });
    expect(rows[0]).toMatchObject({ out_id: leadB!.id, out_status: 'approved' });
    // Call c is the same caller as call b, in the same batch: a duplicate, not paid.
    expect(rows[1]).toMatchObject({ out_id: leadC!.id, out_status: 'rejected' });
    expect(leadC).toMatchObject({ status: 'rejected', ruleOutcome: 'duplicate' });
    expect(leadC!.statusReason).toContain(`Duplicate of call ${b}`);
    // Paid once each: two approved calls at 12.00 in the publisher's balance.
    const [balance] = await t.db
      .select()
      .from(publisherBalances)
      .where(eq(publisherBalances.publisherId, seller.id));
    expect(balance?.earned).toBe('24.00');
    const events = await t.db.select().from(leadEvents).where(eq(leadEvents.leadId, leadA!.id));
    expect(events.map((e) => e.event)).toEqual(['incoming', 'completed']);
  });

  it('undoes only the call that fails inside a batch, and says which', async () => {
    const ok = base();
    const rows = (
      (await t.db.execute(
        sql`select ord, out_id, out_failed from ingest_calls(${JSON.stringify([
          {
            integration: integrationId,
            call_id: ok.call_id,
            event: 'incoming',
            rank: 0,
            billable: 2,
            publisher: pub.id,
            publisher_id: pub.id,
            offer: offer.id,
            offer_id: offer.id,
            minutes: 0,
            tags: null,
            status: 'pending',
          },
          // Not a number of seconds: this call's subtransaction fails.
          { integration: integrationId, call_id: 'bad', event: 'incoming', rank: 0, seconds: 'x' },
          { integration: integrationId, unchanged_since: '2000-01-01T00:00:00Z', call_id: 'old' },
        ])}::jsonb) order by ord`,
      )) as unknown as {
        rows: { ord: number; out_id: string | null; out_failed: string | null }[];
      }
    ).rows;
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ ord: 0, out_failed: null });
    expect(rows[1]!.out_failed).toMatch(/^22P02: invalid input syntax for type integer/);
    expect(rows[2]).toMatchObject({ out_id: null, out_failed: 'stale' });
    expect(await leadOf(ok.call_id)).toHaveLength(1);
    expect(await leadOf('bad')).toHaveLength(0);
    expect(await leadOf('old')).toHaveLength(0);
  });

  it('truncates a batch table once its deleted rows pass 512 kB, and leaves a small one be', async () => {
    // The batch functions' temporary tables keep their rows across commits (drizzle/0055); what
    // a batch deleted is given back only by batch_rows_trim.
    const sizes = await t.db.transaction(async (tx) => {
      const sizeAfter = async (rows: number) => {
        await tx.execute(
          sql`insert into pg_temp.trim_probe select repeat('x', 200) from generate_series(1, ${rows}::int)`,
        );
        await tx.execute(sql`delete from pg_temp.trim_probe`);
        await tx.execute(sql`select batch_rows_trim('pg_temp.trim_probe')`);
        const [row] = await rowsOf<{ n: number }>(
          tx,
          sql`select pg_relation_size('pg_temp.trim_probe')::int as n`,
        );
        return row!.n;
      };
      await tx.execute(sql`create temp table trim_probe (v text) on commit drop`);
      // 100 rows of ~230 bytes: 3 pages, kept; then 3,000 more: ~90 pages, over 512 kB.
      return [await sizeAfter(100), await sizeAfter(3000)];
    });
    expect(sizes[0]).toBeGreaterThan(0);
    expect(sizes[0]).toBeLessThanOrEqual(524288);
    expect(sizes[1]).toBe(0);
  });

  it('ends at the furthest event when events of one call race each other', async () => {
    const call = base();
    const events = ['incoming', 'connected', 'completed', 'converted', 'payout'];
    const shuffled = Array.from({ length: 20 }, (_, i) => events[(i * 7) % events.length]!);
    const answers = await Promise.all(
      shuffled.map((event, i) =>
        ingest({ query: { ...call, key, event, duration: String(10 * i) } }),
      ),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const rows = await leadOf(call.call_id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      lastEvent: 'payout',
      status: 'approved',
      durationSeconds: 190,
    });
  });

  it('moves a lead forward with later events and never back with late or repeated ones', async () => {
    const call = base();
    const first = await ingest({
      query: { ...call, key, event: 'incoming', caller: '+15550001111' },
    });
    const id = first.json().id;
    await ingest({ query: { ...call, key, event: 'connected' } });
    await ingest({
      query: { ...call, key, event: 'completed', duration: '125', revenue: '50', payout: '22' },
    });
    let [lead] = await leadOf(call.call_id);
    expect(lead).toMatchObject({
      id,
      lastEvent: 'completed',
      durationSeconds: 125,
      callDuration: 3,
      revenue: '50.00',
      payout: '22.00',
      caller: '+15550001111',
    });
    // Late events: connected with a shorter duration, incoming again: nothing goes back.
    const late = await ingest({
      query: { ...call, key, event: 'connected', duration: '10', payout: '1' },
    });
    expect(late.json()).toEqual({ id, status: 'approved' });
    await ingest({ query: { ...call, key, event: 'incoming' } });
    [lead] = await leadOf(call.call_id);
    expect(lead).toMatchObject({ lastEvent: 'completed', durationSeconds: 125, payout: '22.00' });
    // A late event may still fill a detail nobody sent yet.
    await ingest({ query: { ...call, key, event: 'incoming', zip: '10001' } });
    [lead] = await leadOf(call.call_id);
    expect(lead).toMatchObject({ lastEvent: 'completed', zip: '10001' });
    // payout moves it on; an error arriving after that does not undo it.
    expect((await ingest({ query: { ...call, key, event: 'payout' } })).json().status).toBe(
      'approved',
    );
    expect((await ingest({ query: { ...call, key, event: 'error' } })).json()).toEqual({
      id,
      status: 'approved',
    });
    expect(await leadOf(call.call_id)).toHaveLength(1);
  });

  it('keeps the maintained lead totals equal to a recount after upserts', async () => {
    const totals = await t.db.execute(sql`
      select
        (select coalesce(sum(leads), 0)::int from lead_totals) as leads,
        (select coalesce(sum(payout), 0)::text from lead_totals) as payout,
        (select count(*)::int from leads) as recount,
        (select coalesce(sum(payout), 0)::text from leads) as repayout`);
    const [row] = (totals as unknown as { rows: Record<string, unknown>[] }).rows;
    expect(row!.leads).toBe(row!.recount);
    expect(Number(row!.payout)).toBe(Number(row!.repayout));
  });

  it('keeps the same call id of two integrations apart', async () => {
    const other = await t.call('POST', '/integrations', { body: { name: 'Retreaver' } });
    const call = base();
    const a = await ingest({ query: { ...call, key } });
    const b = await ingest({ query: { ...call, key: other.json().key } });
    expect(a.json().id).not.toBe(b.json().id);
  });
});

describe('keys and sources', () => {
  it('refuses a revoked key at once, and counts uses on the integration', async () => {
    const created = await t.call('POST', '/integrations', { body: { name: 'Short-lived' } });
    const k = created.json().key as string;
    const id = created.json().integration.id as string;
    expect((await ingest({ query: { ...base(), key: k } })).statusCode).toBe(200);
    expect((await ingest({ query: { ...base(), key: k, duration: 'x' } })).statusCode).toBe(400);
    expect((await t.call('POST', `/integrations/${id}/revoke`)).statusCode).toBe(200);
    const res = await ingest({ query: { ...base(), key: k } });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('key_revoked');
    expect(res.json().error.message).toContain('"Short-lived" was revoked');
    await flushIngestUsage(t.app);
    const [row] = await t.db.select().from(integrations).where(eq(integrations.id, id));
    expect(row).toMatchObject({ acceptedCount: 1, refusedCount: 2 });
    expect(row!.lastUsedAt).not.toBeNull();
  });

  it('lets only the allowed addresses and ranges post', async () => {
    const created = await t.call('POST', '/integrations', {
      body: { name: 'Locked', allowed_ips: ['198.51.100.7', '192.0.2.0/24', '2001:db8::/32'] },
    });
    expect(created.statusCode).toBe(201);
    const k = created.json().key as string;
    for (const ip of ['198.51.100.7', '192.0.2.200', '2001:db8::1', '::ffff:192.0.2.9']) {
      expect((await ingest({ query: { ...base(), key: k }, ip })).statusCode, ip).toBe(200);
    }
    const res = await ingest({ query: { ...base(), key: k }, ip: '198.51.100.8' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toEqual({
      code: 'ip_not_allowed',
      message:
        'Calls from 198.51.100.8 are not allowed for integration "Locked"; add the address on the Integrations screen.',
    });
  });

  it('follows a key revoked, an address list and a mapping changed by another instance at once', async () => {
    // Another instance writes the database directly; this one has the key in its cache.
    const created = await t.call('POST', '/integrations', { body: { name: 'Elsewhere' } });
    const k = created.json().key as string;
    const id = created.json().integration.id as string;
    expect((await ingest({ query: { ...base(), key: k } })).statusCode).toBe(200);
    const otherInstance = (set: Partial<typeof integrations.$inferInsert>) =>
      t.db
        .update(integrations)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(integrations.id, id));
    const leadsOf = (callId: string) =>
      t.db
        .select()
        .from(leads)
        .where(and(eq(leads.integrationId, id), eq(leads.externalCallId, callId)));

    await otherInstance({ fieldMap: { call_id: 'cid' } });
    const mapped = base();
    const byNewName = await ingest({
      query: { key: k, cid: mapped.call_id, publisher: pub.id, offer: offer.id },
    });
    expect(byNewName.statusCode).toBe(200);
    expect(await leadsOf(mapped.call_id)).toHaveLength(1);

    await otherInstance({ allowedIps: ['198.51.100.7'] });
    const blocked = { call_id: callId(), publisher: pub.id, offer: offer.id };
    const res = await ingest({
      query: { key: k, cid: blocked.call_id, publisher: pub.id, offer: offer.id },
    });
    expect(res.statusCode).toBe(403);
    expect(await leadsOf(blocked.call_id)).toHaveLength(0);
    await otherInstance({ allowedIps: [] });
    const open = await ingest({
      query: { key: k, cid: callId(), publisher: pub.id, offer: offer.id },
    });
    expect(open.statusCode).toBe(200);

    await otherInstance({ revokedAt: new Date() });
    const late = callId();
    const revoked = await ingest({
      query: { key: k, cid: late, publisher: pub.id, offer: offer.id },
    });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().error.code).toBe('key_revoked');
    expect(await leadsOf(late)).toHaveLength(0);
  });

  it('reads the fields by the parameter names mapped on the integration', async () => {
    const created = await t.call('POST', '/integrations', {
      body: {
        name: 'Renamed',
        field_map: { call_id: 'InboundCallId', publisher: 'pub', duration: 'secs' },
      },
    });
    const k = created.json().key as string;
    // A bare name stands for a rule reading that one name; the rest keep the preset's.
    expect(created.json().integration.field_map).toMatchObject({
      call_id: { names: ['InboundCallId'] },
      publisher: { names: ['pub'] },
      offer: { names: ['offer'] },
    });
    const ok = await ingest({
      query: { key: k, InboundCallId: 'RGB-1', pub: pub.id, offer: offer.id, secs: '42' },
    });
    expect(ok.statusCode).toBe(200);
    const missing = await ingest({
      query: { key: k, call_id: 'RGB-2', pub: pub.id, offer: offer.id },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details).toHaveProperty('InboundCallId');
  });
});
