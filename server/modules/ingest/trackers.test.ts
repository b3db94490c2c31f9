import { createHash, createHmac } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestRefusals, leads, publisherBalances } from '../../db/schema.ts';
import { fileAdminTest } from '../../test/admin-test.ts';
import { buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';
import { REFUSAL_BURST, REFUSALS_PER_MINUTE } from './ingest.service.ts';

/**
 * Issue 26 through the real endpoint: calls as trackers send them, configured through the
 * admin API only; the money defects (an unanswered call paid, one call paid twice), clean
 * values, tracking numbers, signatures, the endpoint under attack, search and the console.
 */

const t = fileAdminTest();
let pub: TestUser;
let offer: Awaited<ReturnType<typeof buildOffer>>;
let seq = 0;
const callId = (p = 'CA') => `${p}${Date.now().toString(36)}${seq++}`;

/** The query of a call for our publisher and offer, through the integration's key. */
const ourCall = (key: string, id: string) => ({
  key,
  call_id: id,
  publisher: pub.id,
  offer: offer.id,
});
const send = (opts: {
  query?: Record<string, string>;
  body?: string;
  type?: string;
  headers?: Record<string, string>;
  ip?: string;
  /** Default: GET without a body, POST with one. */
  method?: 'PUT' | 'PATCH';
}) => {
  const req: InjectOptions = {
    method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
    url: `/api/v1/ingest/calls${opts.query ? `?${new URLSearchParams(opts.query)}` : ''}`,
    headers: { ...(opts.type && { 'content-type': opts.type }), ...opts.headers },
    remoteAddress: opts.ip ?? '203.0.113.20',
  };
  if (opts.body !== undefined) req.payload = opts.body;
  return t.app.inject(req);
};

async function integration(body: Record<string, unknown>) {
  const res = await t.call('POST', '/integrations', { body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { key: string; integration: { id: string; [k: string]: unknown } };
}

const refusalCount = async (): Promise<number> => {
  const r = (await t.db.execute(
    sql`select count(*)::int as n from ingest_refusals`,
  )) as unknown as {
    rows: { n: number }[];
  };
  return r.rows[0]!.n;
};

const leadsOf = (externalCallId: string) =>
  t.db.select().from(leads).where(eq(leads.externalCallId, externalCallId));

/** The postback was taken (200) and its call is one lead of `pub` and `offer`, with `fields`. */
async function expectOurLead(res: LightMyRequestResponse, externalCallId: string, fields: object) {
  expect(res.statusCode, res.body).toBe(200);
  const [lead] = await leadsOf(externalCallId);
  expect(lead).toMatchObject({ publisherId: pub.id, offerId: offer.id, ...fields });
  return lead!;
}

const earned = async (publisherId: string) => {
  const [row] = await t.db
    .select({ earned: publisherBalances.earned })
    .from(publisherBalances)
    .where(eq(publisherBalances.publisherId, publisherId));
  return Number(row?.earned ?? 0);
};

beforeAll(async () => {
  pub = await buildPublisher(t.db, { name: 'Tracker Tom' });
  offer = await buildOffer(t.db, { title: 'Medicare Calls', payout: '40.00' });
});

describe('only connected calls pay', () => {
  it('an unanswered call mapped from the tracker’s word is recorded, rejected and never paid', async () => {
    const { key } = await integration({
      name: 'Status words',
      field_map: {
        event: {
          names: ['CallStatus'],
          map: { 'no-answer': 'not_connected', answered: 'completed' },
        },
      },
    });
    const before = await earned(pub.id);
    const id = callId();
    const res = await send({
      query: {
        ...ourCall(key, id),
        CallStatus: 'no-answer',
        duration: '0',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('rejected');
    const [lead] = await leadsOf(id);
    expect(lead!.statusReason).toBe('Not connected: no-answer');
    expect(await earned(pub.id)).toBe(before);
  });

  it('a generic post with no event and no duration stays pending instead of being paid', async () => {
    const { key } = await integration({ name: 'Generic, no event' });
    const id = callId();
    const res = await send({ query: ourCall(key, id) });
    expect(res.json().status).toBe('pending');
    const [lead] = await leadsOf(id);
    expect(lead!.statusReason).toMatch(/No event and no duration/);
    // A 0 s call with no event never connected; a 95 s one is completed and pays.
    const zero = callId();
    await send({
      query: { key, call_id: zero, publisher: pub.id, offer: offer.id, duration: '0' },
    });
    expect((await leadsOf(zero))[0]!.status).toBe('rejected');
    const long = callId();
    const paid = await send({
      query: { key, call_id: long, publisher: pub.id, offer: offer.id, duration: '95' },
    });
    expect(paid.json().status).toBe('approved');
  });
});

describe('one call, one lead', () => {
  it('the same call from a pixel and a webhook of one Ringba account is one lead, paid once', async () => {
    // Our own names on both, so this test is about the account, not the preset's names.
    const field_map = {
      call_id: 'call_id',
      publisher: 'publisher',
      offer: 'offer',
      event: 'event',
      duration: 'duration',
    };
    const pixel = await integration({
      name: 'Ringba pixel',
      tracker: 'ringba',
      account_id: 'RA-77',
      field_map,
    });
    const hook = await integration({
      name: 'Ringba webhook',
      tracker: 'ringba',
      account_id: 'ra-77',
      field_map,
    });
    expect(hook.integration.shares_calls_with).toEqual([
      { id: pixel.integration.id, name: 'Ringba pixel' },
    ]);
    const before = await earned(pub.id);
    const id = callId('RGB');
    const fields = {
      call_id: id,
      publisher: pub.id,
      offer: offer.id,
      event: 'completed',
      duration: '120',
    };
    const a = await send({
      body: JSON.stringify(fields),
      type: 'application/json',
      headers: { 'x-api-key': pixel.key },
    });
    const b = await send({
      body: JSON.stringify(fields),
      type: 'application/json',
      headers: { 'x-api-key': hook.key },
    });
    expect(a.statusCode, a.body).toBe(200);
    expect(b.json().id).toBe(a.json().id);
    expect(await leadsOf(id)).toHaveLength(1);
    expect(await earned(pub.id)).toBe(before + 40);
  });

  it('a later event of a known call needs only its call id', async () => {
    const { key } = await integration({ name: 'Late events' });
    const id = callId();
    await send({
      query: { ...ourCall(key, id), event: 'incoming' },
    });
    const late = await send({ query: { key, call_id: id, event: 'completed', duration: '61' } });
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json().status).toBe('approved');
  });

  it('a tracker without call ids identifies a call by the fields named for it', async () => {
    const { key } = await integration({ name: 'No ids', call_id_fields: ['caller', 'timestamp'] });
    const q = {
      key,
      publisher: pub.id,
      offer: offer.id,
      caller: '(310) 555-0199',
      timestamp: '2026-11-20 09:15:00 -0500',
    };
    const a = await send({ query: { ...q, event: 'connected' } });
    const b = await send({
      query: { ...q, caller: '13105550199', event: 'completed', duration: '200' },
    });
    expect(b.json().id).toBe(a.json().id);
    const [lead] = await leadsOf('+13105550199|2026-11-20T14:15:00.000Z');
    expect(lead!.status).toBe('approved');
  });
});

describe('clean values', () => {
  it('phones in E.164 with the raw value kept, unreplaced tokens not sent, states as two letters', async () => {
    const { key } = await integration({ name: 'Clean values', tracker: 'generic' });
    const id = callId();
    const res = await send({
      query: {
        ...ourCall(key, id),
        caller: '866-555-1234',
        tracking_number: '{{tracking}}',
        zip: '[tag:Geo:ZipCode]',
        state: 'California',
        event: 'connected',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [lead] = await leadsOf(id);
    expect(lead).toMatchObject({
      caller: '+18665551234',
      trackingNumber: null,
      zip: null,
      state: 'CA',
    });
    expect(lead!.tags).toEqual({ caller_raw: '866-555-1234' });
  });

  it('nested JSON, several names, a value map, m:ss, cents, a packed value and a local time', async () => {
    const { key } = await integration({
      name: 'Nested',
      time_zone: 'America/New_York',
      field_map: {
        call_id: { names: ['call.uuid', 'callId'] },
        publisher: { names: ['sub'], split: { delimiter: '|', index: 1 } },
        offer: { const: offer.id },
        event: { names: ['call.converted'], map: { true: 'converted', false: 'completed' } },
        duration: { names: ['call.length'], format: 'clock' },
        revenue: { names: ['call.revenue_cents'], format: 'cents' },
        timestamp: { names: ['call.started'] },
      },
    });
    const id = callId();
    const res = await send({
      type: 'application/json',
      headers: { 'x-api-key': key },
      body: JSON.stringify({
        sub: `clickA|${pub.id}`,
        call: {
          uuid: id,
          converted: true,
          length: '2:05',
          revenue_cents: 4550,
          started: '2026-11-20 09:00:00',
        },
      }),
    });
    const lead = await expectOurLead(res, id, {
      durationSeconds: 125,
      revenue: '45.50',
      lastEvent: 'converted',
    });
    expect(lead.timestamp.toISOString()).toBe('2026-11-20T14:00:00.000Z');
  });
});

describe('tracking numbers', () => {
  it('a Twilio callback without a publisher belongs to the pair its number is assigned to', async () => {
    const assigned = await t.call('POST', '/tracking-numbers', {
      body: { number: '(818) 555-0147', publisher_id: pub.id, offer_id: offer.id },
    });
    expect(assigned.statusCode, assigned.body).toBe(201);
    expect(assigned.json().number).toBe('+18185550147');
    const { key } = await integration({ name: 'Twilio voice', tracker: 'twilio' });
    const sid = `CA${createHash('md5').update(callId()).digest('hex')}`;
    const form = new URLSearchParams({
      CallSid: sid,
      AccountSid: 'AC0123456789abcdef0123456789abcdef',
      From: '+13105550182',
      To: '+18185550147',
      CallStatus: 'completed',
      CallDuration: '75',
    });
    const res = await send({
      query: { key },
      body: form.toString(),
      type: 'application/x-www-form-urlencoded',
    });
    await expectOurLead(res, sid, {
      caller: '+13105550182',
      status: 'approved',
    });
    // A number nobody was given: refused with the reason, kept for replay.
    const other = await send({
      query: { key },
      body: new URLSearchParams({
        CallSid: `${sid}x`,
        To: '+18185550100',
        CallStatus: 'completed',
        CallDuration: '75',
      }).toString(),
      type: 'application/x-www-form-urlencoded',
    });
    expect(other.statusCode).toBe(422);
    expect(other.json().error.message).toMatch(/tracking number \+18185550100 is not assigned/);
  });

  it("answers Twilio's <Dial action> with TwiML (it runs the answer), its status callback with JSON", async () => {
    const assigned = await t.call('POST', '/tracking-numbers', {
      body: { number: '+18185550148', publisher_id: pub.id, offer_id: offer.id },
    });
    expect(assigned.statusCode, assigned.body).toBe(201);
    const { key } = await integration({ name: 'Twilio dial', tracker: 'twilio' });
    const sid = callId('CA');
    const base = { CallSid: sid, From: '+13105550183', To: '+18185550148' };
    const form = (p: Record<string, string>) => ({
      query: { key },
      body: new URLSearchParams({ ...base, ...p }).toString(),
      type: 'application/x-www-form-urlencoded',
    });
    // The number's status callback: JSON, as every tracker gets.
    const ringing = await send(form({ CallStatus: 'ringing' }));
    expect(ringing.statusCode, ringing.body).toBe(200);
    expect(ringing.headers['content-type']).toMatch(/^application\/json/);
    expect(ringing.json()).toMatchObject({ status: 'pending' });
    // The <Dial action> once the buyer's leg ended: Twilio continues the call with what it
    // gets back, so an empty <Response/> (the call ends), never JSON (its error 12300).
    const dialed = await send(
      form({ CallStatus: 'in-progress', DialCallStatus: 'completed', DialCallDuration: '95' }),
    );
    expect(dialed.statusCode, dialed.body).toBe(200);
    expect(dialed.headers['content-type']).toMatch(/^text\/xml/);
    expect(dialed.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    await expectOurLead(dialed, sid, { status: 'approved', durationSeconds: 95 });
    // A refused action is still a refusal with its reason (Twilio's debugger shows it).
    const unassigned = await send(
      form({ CallSid: `${sid}x`, To: '+18185550100', DialCallStatus: 'completed' }),
    );
    expect(unassigned.statusCode).toBe(422);
    expect(unassigned.json().error.code).toBe('unknown_publisher');
  });
});

describe('methods', () => {
  it('a pixel sent with PUT or PATCH (Ringba allows both) is read as a POST', async () => {
    const { key } = await integration({ name: 'Pixel methods', tracker: 'generic' });
    for (const method of ['PUT', 'PATCH'] as const) {
      const id = callId();
      const res = await send({
        method,
        query: { key },
        body: JSON.stringify({
          call_id: id,
          publisher: pub.id,
          offer: offer.id,
          event: 'completed',
          duration: '120',
        }),
        type: 'application/json',
      });
      await expectOurLead(res, id, { status: 'approved', durationSeconds: 120 });
    }
  });
});

describe('signatures and secrets', () => {
  const secret = 'cr-signing-key-123';
  it('CallRail: HMAC-SHA1 of the body; a wrong one is 401, kept without the secret', async () => {
    const { key, integration: i } = await integration({
      name: 'CallRail',
      tracker: 'callrail',
      signature: { scheme: 'callrail', secret },
      field_map: {
        call_id: 'resource_id',
        event: { names: ['answered'], map: { true: 'completed', false: 'not_connected' } },
        duration: 'duration',
        tracking_number: 'tracking_phone_number',
        caller: 'customer_phone_number',
      },
    });
    expect(i.signature).toEqual({ scheme: 'callrail', header: 'signature', secret_hint: '…-123' });
    await t.call('POST', '/tracking-numbers', {
      body: { number: '+14045550111', publisher_id: pub.id, offer_id: offer.id },
    });
    const id = callId('CAL');
    const body = JSON.stringify({
      resource_id: id,
      answered: true,
      duration: 180,
      tracking_phone_number: '+14045550111',
      customer_phone_number: '+14045550999',
      api_token: 'abc123secret',
    });
    const good = createHmac('sha1', secret).update(body).digest('base64');
    const ok = await send({
      query: { key },
      body,
      type: 'application/json',
      headers: { signature: good },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const bad = await send({
      query: { key },
      body: body.replace('180', '181'),
      type: 'application/json',
      headers: { signature: good },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().error.code).toBe('bad_signature');
    const [refusal] = await t.db
      .select()
      .from(ingestRefusals)
      .where(and(eq(ingestRefusals.integrationId, i.id), eq(ingestRefusals.code, 'bad_signature')));
    expect(JSON.stringify(refusal)).not.toContain(secret);
    expect(JSON.stringify(refusal)).not.toContain('abc123secret');
    expect(JSON.stringify(refusal)).not.toContain(key);
  });

  it('Twilio: signed over PUBLIC_URL, path and query (key included) and the sorted form', async () => {
    const token = 'twilio-auth-token-0123456789abcdef';
    const { key } = await integration({
      name: 'Twilio signed',
      tracker: 'twilio',
      signature: { scheme: 'twilio', secret: token },
    });
    const params = { CallSid: callId('CA'), To: '+18185550147', CallStatus: 'busy' };
    const path = `/api/v1/ingest/calls?key=${encodeURIComponent(key)}`;
    const data = `${t.config.publicUrl}${path}${Object.keys(params)
      .sort()
      .map((k) => k + params[k as keyof typeof params])
      .join('')}`;
    const sig = createHmac('sha1', token).update(data).digest('base64');
    const res = await send({
      query: { key },
      body: new URLSearchParams(params).toString(),
      type: 'application/x-www-form-urlencoded',
      headers: { 'x-twilio-signature': sig },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('rejected');
    const forged = await send({
      query: { key },
      body: new URLSearchParams({ ...params, CallStatus: 'completed' }).toString(),
      type: 'application/x-www-form-urlencoded',
      headers: { 'x-twilio-signature': sig },
    });
    expect(forged.statusCode).toBe(401);
  });

  it('Basic auth and a generic HMAC-SHA256 header', async () => {
    const basic = await integration({
      name: 'Basic',
      signature: { scheme: 'basic', secret: 'tracker:pa55word' },
    });
    const q = { call_id: callId(), publisher: pub.id, offer: offer.id, event: 'incoming' };
    const auth = `Basic ${Buffer.from('tracker:pa55word').toString('base64')}`;
    expect(
      (await send({ query: { ...q, key: basic.key }, headers: { authorization: auth } }))
        .statusCode,
    ).toBe(200);
    expect(
      (await send({ query: { ...q, key: basic.key }, headers: { authorization: 'Basic eDp5' } }))
        .statusCode,
    ).toBe(401);
    const hmac = await integration({
      name: 'HMAC',
      signature: {
        scheme: 'hmac-sha256',
        secret: 'shared-secret-9',
        header: 'X-Hub-Signature-256',
      },
    });
    const body = JSON.stringify({ ...q, call_id: callId() });
    const sig = `sha256=${createHmac('sha256', 'shared-secret-9').update(body).digest('hex')}`;
    expect(
      (
        await send({
          query: { key: hmac.key },
          body,
          type: 'application/json',
          headers: { 'x-hub-signature-256': sig },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await send({
          query: { key: hmac.key },
          body: `${body} `,
          type: 'application/json',
          headers: { 'x-hub-signature-256': sig },
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('the endpoint under attack', () => {
  it('a body nested thousands of levels deep is a 400 with the reason, not a 500', async () => {
    const { key } = await integration({ name: 'Deep' });
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const res = await send({ query: { key }, body: `{"a":${deep}}`, type: 'application/json' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/nests 5001 levels deep/);
  });

  it('keyless requests are counted, not stored, and an address past its budget gets 429', async () => {
    const before = await refusalCount();
    const ip = '198.51.100.66';
    const answers: number[] = [];
    const started = Date.now();
    for (let i = 0; i < REFUSAL_BURST + 5; i++) {
      answers.push(
        (
          await send({
            query: { call_id: `x${i}` },
            body: JSON.stringify({ note: 'y'.repeat(2000) }),
            type: 'application/json',
            ip,
          })
        ).statusCode,
      );
    }
    // The budget refills at REFUSALS_PER_MINUTE while the burst is sent: on a slow machine
    // a refusal or two past the burst is earned back, never more than the time allows.
    const refilled = Math.ceil(((Date.now() - started) / 60_000) * REFUSALS_PER_MINUTE);
    expect(answers.slice(0, REFUSAL_BURST)).toEqual(Array(REFUSAL_BURST).fill(401));
    const tail = answers.slice(REFUSAL_BURST);
    expect(tail.filter((s) => s === 401).length).toBeLessThanOrEqual(Math.min(refilled, 4));
    expect(tail.every((s) => s === 401 || s === 429)).toBe(true);
    const last = await send({ query: { call_id: 'z' }, ip });
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    const after = await refusalCount();
    expect(after).toBe(before);
  });
});

describe('finding a call', () => {
  it('the admin finds a call by its call id, the caller or the tracking number in any format', async () => {
    const { key } = await integration({ name: 'Search' });
    const id = callId('FIND');
    await send({
      query: {
        ...ourCall(key, id),
        caller: '+1 (646) 555-0133',
        tracking_number: '877.555.0144',
        event: 'connected',
      },
    });
    for (const q of [id, '6465550133', '(646) 555-0133', '+18775550144', '877-555-0144']) {
      const res = await t.call('GET', '/leads', { query: { q } });
      expect(res.statusCode, res.body).toBe(200);
      expect(
        res.json().items.map((l: { call_id: string }) => l.call_id),
        q,
      ).toEqual([id]);
    }
    const none = await t.call('GET', '/leads', { query: { q: 'no-such-call' } });
    expect(none.json().items).toEqual([]);
    // The publisher finds it by call id in their own list only.
    const token = await t.tokenOf(pub);
    const mine = await t.app.inject({
      url: `/api/v1/publisher/leads?q=${id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(mine.json().items.map((l: { call_id: string }) => l.call_id)).toEqual([id]);
  });
});

describe('the test console', () => {
  it('shows the lead a request would make, field by field, and writes nothing', async () => {
    const { integration: i } = await integration({ name: 'Console', tracker: 'twilio' });
    await t.call('POST', '/tracking-numbers', {
      body: { number: '+17025550123', publisher_id: pub.id, offer_id: offer.id },
    });
    const sid = callId('CACONSOLE');
    const res = await t.call('POST', `/integrations/${i.id}/test`, {
      body: {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          CallSid: sid,
          To: '+17025550123',
          From: '7025550999',
          CallStatus: 'no-answer',
        }).toString(),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r.outcome).toBe('create');
    expect(r.lead).toMatchObject({
      status: 'rejected',
      reason: 'Not connected: no-answer',
      publisher_id: pub.id,
      caller: '+17025550999',
    });
    expect(r.fields.find((f: { field: string }) => f.field === 'event')).toMatchObject({
      source: 'CallStatus',
      raw: 'no-answer',
      value: 'not_connected',
    });
    expect(await leadsOf(sid)).toEqual([]);
  });
});
