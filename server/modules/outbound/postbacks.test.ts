import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import {
  buildAdmin,
  buildOffer,
  buildPublisher,
  type TestUser,
  tokenFor,
} from '../../test/factories.ts';
import { type Sink, startSink } from '../../test/http-sink.ts';
import { until } from '../../test/waiting.ts';

// A publisher's postbacks through the real app, its worker and a real local receiver.

let t: TestApp;
let sink: Sink;
let publisher: TestUser;
let pubToken: string;
let adminToken: string;

beforeAll(async () => {
  t = await buildTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
  sink = await startSink();
  publisher = await buildPublisher(t.db);
  pubToken = await tokenFor(t.db, t.config.jwtSecret, publisher);
  adminToken = await tokenFor(t.db, t.config.jwtSecret, await buildAdmin(t.db));
});
afterAll(async () => {
  await sink.close();
  await t.close();
});

const as =
  (token: string, prefix: string) =>
  (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1/${prefix}${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload !== undefined && { payload: payload as object }),
    });
const pub = () => as(pubToken, 'publisher');
const admin = () => as(adminToken, 'admin');

describe('publisher postbacks', () => {
  it('fire once per lead and event, in the order of the lead’s events, and show in the log', async () => {
    const offer = await buildOffer(t.db, { title: 'Auto Insurance' });
    await admin()('PUT', '/postback-settings', { passable_tags: ['sub_id'] });
    const put = await pub()('PUT', '/postbacks', {
      templates: [
        {
          event: 'approved',
          method: 'GET',
          url: `${sink.url}/pb?e=approved&id={call_id}&p={payout}&o={offer_name}&s={tag:sub_id}`,
        },
        { event: 'rejected', method: 'GET', url: `${sink.url}/pb?e=rejected&id={call_id}` },
        {
          event: 'status_changed',
          method: 'POST',
          url: `${sink.url}/pb?e=status`,
          body: '{"status":"{status}","reason":"{reason}"}',
        },
      ],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().templates).toHaveLength(3);

    const [lead] = await t.db
      .insert(leads)
      .values({
        publisherId: publisher.id,
        offerId: offer.id,
        payout: '30.00',
        status: 'pending',
        tags: { sub_id: 'campaign 7' },
      })
      .returning();
    await t.db.update(leads).set({ status: 'approved' }).where(eq(leads.id, lead!.id));
    await t.db
      .update(leads)
      .set({ status: 'rejected', statusReason: 'Duplicate "call"' })
      .where(eq(leads.id, lead!.id));
    await t.db.update(leads).set({ status: 'approved' }).where(eq(leads.id, lead!.id));
    // approved, status, rejected, status, status: the second approval fires no second approved.
    await until(() => sink.requests.length >= 5, 'five postbacks arrive');
    await new Promise((r) => setTimeout(r, 500));
    const seen = sink.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('e'));
    expect(seen).toEqual(['approved', 'status', 'rejected', 'status', 'status']);
    const first = new URL(sink.requests[0]!.url, 'http://x').searchParams;
    expect(Object.fromEntries(first)).toMatchObject({
      id: lead!.id,
      p: '30.00',
      o: 'Auto Insurance',
      s: 'campaign 7',
    });
    expect(JSON.parse(sink.requests[3]!.body)).toEqual({
      status: 'rejected',
      reason: 'Duplicate "call"',
    });

    const log = (await pub()('GET', '/postback-deliveries')).json();
    expect(log.items).toHaveLength(5);
    expect(log.items.every((d: { state: string }) => d.state === 'delivered')).toBe(true);
    // Another publisher sees none of it.
    const other = await buildPublisher(t.db);
    const otherToken = await tokenFor(t.db, t.config.jwtSecret, other);
    const theirs = await as(otherToken, 'publisher')('GET', '/postback-deliveries');
    expect(theirs.json().items).toHaveLength(0);
    const peek = await as(otherToken, 'publisher')(
      'GET',
      `/postback-deliveries/${log.items[0].id}`,
    );
    expect(peek.statusCode).toBe(404);
    // The admin reads the same log on the publisher's page.
    const adminLog = (
      await admin()('GET', `/publishers/${publisher.id}/postback-deliveries`)
    ).json();
    expect(adminLog.items).toHaveLength(5);
  });

  it('Test fires a sample and answers what the receiver said', async () => {
    sink.answer = () => ({ status: 202, body: 'thanks' });
    const res = await pub()('POST', '/postbacks/test', {
      event: 'approved',
      method: 'GET',
      url: `${sink.url}/test?id={call_id}&p={payout}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 202, body: 'thanks', error: null });
    expect(res.json().request.url).toContain('p=12.50');
    sink.answer = () => ({ status: 200, body: 'ok' });
  });

  it('refuses unknown tokens, two templates for one event, and a publisher’s per-offer template', async () => {
    const unknown = await pub()('PUT', '/postbacks', {
      templates: [{ event: 'approved', method: 'GET', url: 'https://t.example/?x={nope}' }],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toMatch(/^Unknown token \{nope\}/);
    const twice = await pub()('PUT', '/postbacks', {
      templates: [
        { event: 'approved', method: 'GET', url: 'https://t.example/a' },
        { event: 'approved', method: 'GET', url: 'https://t.example/b' },
      ],
    });
    expect(twice.json().error.message).toBe('Two templates for approved: keep one per event.');
    const offer = await buildOffer(t.db);
    const perOffer = await pub()('PUT', '/postbacks', {
      templates: [
        { event: 'approved', method: 'GET', url: 'https://t.example/a', offer_id: offer.id },
      ],
    });
    expect(perOffer.statusCode).toBe(400);
    // The admin may: their per-offer template sits beside the publisher's own.
    const byAdmin = await admin()('PUT', `/publishers/${publisher.id}/postbacks`, {
      templates: [
        { event: 'approved', method: 'GET', url: 'https://t.example/all' },
        { event: 'approved', method: 'GET', url: 'https://t.example/one', offer_id: offer.id },
      ],
    });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().templates).toHaveLength(2);
    // The publisher reads the per-offer one by the offer's name.
    const read = (await pub()('GET', '/postbacks')).json().templates;
    expect(read.map((x: { offer_title: string | null }) => x.offer_title)).toEqual([
      offer.title,
      null,
    ]);
  });
});
