import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { buildAdmin, buildOffer, buildPublisher, tokenFor } from '../../test/factories.ts';
import { type Sink, startSink } from '../../test/http-sink.ts';
import { until } from '../../test/waiting.ts';

// Admin → Webhooks through the real app and its background worker, to a real local receiver
// (OUTBOUND_ALLOW_PRIVATE=true lets it reach 127.0.0.1).

let t: TestApp;
let token: string;
let sink: Sink;

beforeAll(async () => {
  t = await buildTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
  token = await tokenFor(t.db, t.config.jwtSecret, await buildAdmin(t.db));
  sink = await startSink();
});
afterAll(async () => {
  await sink.close();
  await t.close();
});

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url: `/api/v1/admin${url}`,
    headers: { authorization: `Bearer ${token}` },
    ...(payload !== undefined && { payload: payload as object }),
  });

async function newLead() {
  const [lead] = await t.db
    .insert(leads)
    .values({
      publisherId: (await buildPublisher(t.db)).id,
      offerId: (await buildOffer(t.db)).id,
      payout: '20.00',
      status: 'approved',
    })
    .returning();
  return lead!;
}

describe('Admin → Webhooks', () => {
  it('creates an endpoint answering its whsec_ secret once; a new lead reaches it signed', async () => {
    const res = await call('POST', '/webhooks', {
      url: `${sink.url}/in`,
      events: ['lead.created', 'lead.status_changed'],
    });
    expect(res.statusCode).toBe(201);
    const ep = res.json() as { id: string; secret: string; events: string[] };
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    // Read again, the secret is not shown.
    const again = (await call('GET', `/webhooks/${ep.id}`)).json();
    expect(again).not.toHaveProperty('secret');
    expect((await call('GET', '/webhooks')).json().items).toHaveLength(1);

    const lead = await newLead();
    await until(() => sink.requests.length >= 1, 'the webhook arrives');
    const req = sink.requests[0]!;
    const body = new Webhook(ep.secret).verify(req.body, req.headers as Record<string, string>);
    expect(body).toMatchObject({ type: 'lead.created', data: { lead_id: lead.id, payout: 20 } });

    // The delivery log: delivered at the first attempt, the answer kept.
    let list = (await call('GET', `/webhooks/${ep.id}/deliveries`)).json();
    for (let i = 0; i < 50 && list.items[0]?.state !== 'delivered'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      list = (await call('GET', `/webhooks/${ep.id}/deliveries`)).json();
    }
    expect(list.items[0]).toMatchObject({ state: 'delivered', attempts: 1, last_status: 200 });
    const detail = (await call('GET', `/webhook-deliveries/${list.items[0].id}`)).json();
    expect(detail.attempt_log[0]).toMatchObject({ attempt: 1, status: 200, response_body: 'ok' });

    // Replay: the same event id again, verified again.
    const replayed = await call('POST', `/webhook-deliveries/${list.items[0].id}/replay`);
    expect(replayed.statusCode).toBe(200);
    await until(() => sink.requests.length >= 2, 'the replay arrives');
    expect(sink.requests[1]!.headers['webhook-id']).toBe(req.headers['webhook-id']);

    // Rotation: both secrets sign for a day, so a receiver on either verifies.
    const rotated = (await call('POST', `/webhooks/${ep.id}/rotate-secret`)).json();
    expect(rotated.secret).not.toBe(ep.secret);
    expect(rotated.previous_secret_expires_at).not.toBeNull();
    await newLead();
    await until(() => sink.requests.length >= 3, 'the next webhook arrives');
    const third = sink.requests[2]!;
    expect(String(third.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [ep.secret, rotated.secret]) {
      expect(() =>
        new Webhook(secret).verify(third.body, third.headers as Record<string, string>),
      ).not.toThrow();
    }

    // Disabled: nothing more is sent; deleted: gone with its log.
    expect((await call('PATCH', `/webhooks/${ep.id}`, { enabled: false })).json().enabled).toBe(
      false,
    );
    await newLead();
    await new Promise((r) => setTimeout(r, 600));
    expect(sink.requests).toHaveLength(3);
    expect((await call('DELETE', `/webhooks/${ep.id}`)).statusCode).toBe(204);
    expect((await call('GET', `/webhooks/${ep.id}`)).statusCode).toBe(404);
  });

  it('refuses a URL that is not http(s) and unknown event types, with a sentence', async () => {
    const bad = await call('POST', '/webhooks', {
      url: 'ftp://x.example',
      events: ['lead.created'],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Enter a full http:// or https:// URL.');
    const events = await call('POST', '/webhooks', { url: 'https://x.example', events: ['nope'] });
    expect(events.statusCode).toBe(400);
    expect(events.body).toContain('Choose event types among');
    const none = await call('POST', '/webhooks', { url: 'https://x.example', events: [] });
    expect(none.body).toContain('Choose at least one event type.');
  });

  it('Test sends a signed sample; past 10 tests a minute a user is answered 429, postback tests too', async () => {
    const ep = (
      await call('POST', '/webhooks', { url: `${sink.url}/test-in`, events: ['lead.created'] })
    ).json() as { id: string; secret: string };
    sink.answer = () => ({ status: 202, body: 'thanks' });
    const first = await call('POST', `/webhooks/${ep.id}/test`, { event: 'lead.status_changed' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ status: 202, body: 'thanks', error: null });
    const got = sink.requests.find((r) => r.url === '/test-in')!;
    const body = new Webhook(ep.secret).verify(got.body, got.headers as Record<string, string>);
    expect(body).toMatchObject({ type: 'lead.status_changed', data: { status: 'approved' } });
    sink.answer = () => ({ status: 200, body: 'ok' });

    // Nine more pass (ten a minute); the eleventh, and the admin's postback Test, are refused.
    for (let i = 0; i < 9; i++) {
      const res = await call('POST', `/webhooks/${ep.id}/test`, { event: 'lead.created' });
      expect(res.statusCode).toBe(200);
    }
    const sent = sink.requests.length;
    const refused = await call('POST', `/webhooks/${ep.id}/test`, { event: 'lead.created' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toMatch(
      /^Too many tests: at most 10 a minute\. Try again in \d+ s\.$/,
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const publisher = await buildPublisher(t.db);
    const postback = await call('POST', `/publishers/${publisher.id}/postbacks/test`, {
      event: 'approved',
      method: 'GET',
      url: `${sink.url}/pb?id={call_id}`,
    });
    expect(postback.statusCode).toBe(429);
    expect(sink.requests).toHaveLength(sent);

    // Another user has a budget of their own.
    const publisherToken = await tokenFor(t.db, t.config.jwtSecret, publisher);
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/v1/publisher/postbacks/test',
      headers: { authorization: `Bearer ${publisherToken}` },
      payload: { event: 'approved', method: 'GET', url: `${sink.url}/pb?id={call_id}` },
    });
    expect(own.statusCode).toBe(200);
  });
});
