import { describe, expect, it } from 'vitest';
import { fileTestApp } from '../test/build-test-app.ts';
import { buildAdmin, buildBuyer, buildOffer, buildPublisher, signedIn } from '../test/factories.ts';

// Garbage a person or a script may send: every answer is a 4xx with a readable message, never
// a 500 from the database.
const t = fileTestApp(async (app) => {
  const pub = await signedIn(app, buildPublisher(app.db));
  return {
    admin: (await signedIn(app, buildAdmin(app.db))).token,
    publisher: pub.token,
    buyer: (await signedIn(app, buildBuyer(app.db))).token,
    pub,
    offerId: (await buildOffer(app.db)).id,
  };
});

type Call = { method: 'GET' | 'POST' | 'PATCH'; url: string; token?: string; body?: unknown };

async function call(c: Call) {
  const res = await t.app.inject({
    method: c.method,
    url: c.url,
    headers: c.token ? { authorization: `Bearer ${c.token}` } : {},
    ...(c.body === undefined ? {} : { payload: c.body as object }),
  });
  return { status: res.statusCode, body: res.json() as { error?: { message: string } } };
}

/** The call is answered 400: its message. */
async function refusalOf(c: Call) {
  const r = await call(c);
  expect(r.status, c.url).toBe(400);
  return r.body.error?.message;
}

/** Every call is answered 400, its message matching `message` when given. */
async function expectRefused(calls: Call[], message?: RegExp) {
  for (const c of calls) {
    const refusal = await refusalOf(c);
    if (message) expect(refusal, c.url).toMatch(message);
  }
}

describe('a NUL character (\\u0000) in text', () => {
  it('is refused with 400 naming the field, in a JSON body', async () => {
    const message = await refusalOf({
      method: 'POST',
      url: '/api/v1/admin/offers',
      token: t.admin,
      body: { title: 'Solar\u0000', vertical: 'Solar', payout: 1 },
    });
    expect(message).toMatch(/title/);
    expect(message).toMatch(/NUL/);
  });

  it('is refused with 400 in a query string, for every role', async () => {
    await expectRefused(
      [
        { method: 'GET', url: '/api/v1/admin/publishers?q=%00', token: t.admin },
        { method: 'GET', url: '/api/v1/admin/audit?entity_id=%00', token: t.admin },
        { method: 'GET', url: '/api/v1/publisher/offers?search=a%00', token: t.publisher },
      ],
      /NUL/,
    );
  });

  it('is refused in nested JSON (settings, campaigns, payouts)', async () => {
    await expectRefused([
      {
        method: 'PATCH',
        url: '/api/v1/admin/settings',
        token: t.admin,
        body: { welcome_message: 'Hi\u0000' },
      },
      {
        method: 'POST',
        url: '/api/v1/buyer/campaigns',
        token: t.buyer,
        body: { name: 'a\u0000b' },
      },
      {
        method: 'POST',
        url: '/api/v1/admin/payouts',
        token: t.admin,
        body: { publisher_id: t.pub.id, amount: 1, notes: '\u0000' },
      },
    ]);
  });

  it('is refused on /auth/v1 in the GoTrue error format', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/signup',
      headers: { 'x-supabase-api-version': '2024-01-01' },
      payload: {
        email: 'nul-in-data@example.test',
        password: 'secret123',
        data: { full_legal_name: 'Jo\u0000' },
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed' });
    const token = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      payload: { email: 'a\u0000@example.test', password: 'whatever' },
    });
    expect(token.statusCode).toBe(400);
  });
});

describe('dates outside what the database stores', () => {
  it('are refused with 400 in list filters', async () => {
    await expectRefused(
      [
        { method: 'GET', url: '/api/v1/admin/leads?to=9999-12-31', token: t.admin },
        { method: 'GET', url: '/api/v1/admin/payouts?from=0000-01-01', token: t.admin },
        { method: 'GET', url: '/api/v1/publisher/leads?from=0000-01-01', token: t.publisher },
        { method: 'GET', url: '/api/v1/publisher/leads?to=9999-12-31', token: t.publisher },
      ],
      /1900-01-01/,
    );
  });

  it('are refused with 400 when recording a lead or creating a campaign', async () => {
    await refusalOf({
      method: 'POST',
      url: '/api/v1/admin/leads',
      token: t.admin,
      body: { publisher_id: t.pub.id, offer_id: t.offerId, timestamp: '0000-01-01T00:00:00Z' },
    });
    const campaign = await refusalOf({
      method: 'POST',
      url: '/api/v1/buyer/campaigns',
      token: t.buyer,
      body: { name: 'Old', start_date: '0000-01-01' },
    });
    expect(campaign).toMatch(/Start date/);
  });
});

describe("zod's own messages", () => {
  it('read as sentences, without NaN or schema jargon', async () => {
    const page = await refusalOf({
      method: 'GET',
      url: '/api/v1/admin/offers?page=abc',
      token: t.admin,
    });
    expect(page).toBe('page: Must be a number.');
    const zero = await call({ method: 'GET', url: '/api/v1/admin/offers?page=0', token: t.admin });
    expect(zero.body.error?.message).toBe('page: Must be at least 1.');
    const big = await call({
      method: 'GET',
      url: '/api/v1/publisher/offers?page_size=1000',
      token: t.publisher,
    });
    expect(big.body.error?.message).toBe('page_size: Must be at most 200.');
    const status = await call({
      method: 'POST',
      url: '/api/v1/admin/offers',
      token: t.admin,
      body: { title: 'T', vertical: 'V', payout: 1, status: 'paused' },
    });
    expect(status.body.error?.message).toBe('status: Must be one of: active, inactive.');
    const list = await call({
      method: 'POST',
      url: '/api/v1/admin/offers',
      token: t.admin,
      body: [],
    });
    expect(list.body.error?.message).toBe('Request: Must be a JSON object.');
  });
});

describe('a value the database itself refuses', () => {
  it('answers 400 with a readable message, not 500', async () => {
    // A route no schema guards: the SQL cast fails with a class-22 data exception.
    const Fastify = (await import('fastify')).default;
    const { errorHandler } = await import('./error-handler.ts');
    const { sql } = await import('drizzle-orm');
    const bare = Fastify({ logger: false });
    bare.setErrorHandler(errorHandler);
    bare.get('/cast', async () => t.db.execute(sql`select ${'2024-13-45'}::date`));
    const res = await bare.inject('/cast');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/out of range or cannot be stored/);
    await bare.close();
  });
});
