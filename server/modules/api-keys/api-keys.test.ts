import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAST_USED_EVERY_MS } from '../../auth/guard.ts';
import { apiKeys, auditLog, users } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { expectAnswer } from '../../test/expect-answer.ts';
import {
  buildAdmin,
  buildApiKey,
  buildBuyer,
  buildPublisher,
  signedIn,
  type TestUser,
} from '../../test/factories.ts';

/**
 * Personal API keys (issue 30, item 5): made by a signed-in user, shown once, stored hashed,
 * listed without the secret, revoked at once; a key acts as its user on /api/v1 within its
 * scopes, rate limited, audited, and never on /auth/v1.
 */

let t: TestApp;
let admin: TestUser & { token: string };
let publisher: TestUser & { token: string };
let buyer: TestUser & { token: string };

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const V = { 'x-supabase-api-version': '2024-01-01' };

const create = (token: string, body: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/me/api-keys',
    headers: bearer(token),
    payload: body,
  });
const get = (url: string, token: string) =>
  t.app.inject({ method: 'GET', url, headers: bearer(token) });

beforeAll(async () => {
  // A small limit so the test reaches it; every other key here stays well under it.
  t = await buildTestApp({ env: { API_KEY_RATE_LIMIT: '5' } });
  admin = await signedIn(t, buildAdmin(t.db));
  publisher = await signedIn(t, buildPublisher(t.db));
  buyer = await signedIn(t, buildBuyer(t.db));
});
afterAll(() => t.close());

describe('making and listing keys', () => {
  it('answers the key once, stores only its hash, lists it without the secret', async () => {
    const res = await create(publisher.token, {
      name: 'Nightly export',
      scopes: ['leads:read', 'reports:read'],
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created.key).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      name: 'Nightly export',
      prefix: created.key.slice(0, 12),
      scopes: ['leads:read', 'reports:read'],
      expires_at: null,
      last_used_at: null,
    });
    expect(res.headers['cache-control']).toBe('no-store');

    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row!.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(created.key);

    const list = await get('/api/v1/me/api-keys', publisher.token);
    expect(list.statusCode).toBe(200);
    const item = list.json().items.find((k: { id: string }) => k.id === created.id);
    expect(item).toEqual({
      id: created.id,
      name: 'Nightly export',
      prefix: created.prefix,
      scopes: ['leads:read', 'reports:read'],
      created_at: created.created_at,
      expires_at: null,
      last_used_at: null,
    });
    expect(list.body).not.toContain(created.key);
    // Another user's list does not show it.
    const theirs = await get('/api/v1/me/api-keys', buyer.token);
    expect(theirs.body).not.toContain(created.id);
  });

  it('gives each role only its scopes: write scopes are for admins', async () => {
    expectAnswer(await create(publisher.token, { name: 'x', scopes: ['leads:write'] }), 400, {
      error: {
        code: 'validation_failed',
        message:
          'Your account cannot give a key the scope leads:write: choose from leads:read, payouts:read, reports:read.',
      },
    });
    expectAnswer(await create(buyer.token, { name: 'x', scopes: ['leads:read'] }), 400, {
      error: { code: 'validation_failed' },
    });
    const res = await create(admin.token, {
      name: 'Ops',
      scopes: ['leads:write', 'payouts:write', 'leads:read'],
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses a nameless key, no scopes, an unknown scope and an expiry in the past', async () => {
    expectAnswer(await create(publisher.token, { name: ' ', scopes: ['leads:read'] }), 400, {
      error: { details: { name: ['Give the key a name.'] } },
    });
    expectAnswer(await create(publisher.token, { name: 'x', scopes: [] }), 400, {
      error: { details: { scopes: ['Choose at least one scope.'] } },
    });
    const unknown = await create(publisher.token, { name: 'x', scopes: ['everything'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('Each scope must be one of');
    expectAnswer(
      await create(publisher.token, {
        name: 'x',
        scopes: ['leads:read'],
        expires_at: '2020-01-01T00:00:00Z',
      }),
      400,
      { error: { message: 'The expiry must be in the future.' } },
    );
  });

  it('audits the creation and the revocation, without the secret', async () => {
    const res = await create(buyer.token, { name: 'Audited', scopes: ['campaigns:read'] });
    const { id, key } = res.json();
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/me/api-keys/${id}`,
      headers: bearer(buyer.token),
    });
    expect(del.statusCode).toBe(204);
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'api_key'), eq(auditLog.entityId, id)));
    expect(rows.map((r) => [r.action, r.actorEmail]).sort()).toEqual([
      ['api_key.create', buyer.email],
      ['api_key.revoke', buyer.email],
    ]);
    expect(rows.find((r) => r.action === 'api_key.create')!.after).toMatchObject({
      name: 'Audited',
      scopes: ['campaigns:read'],
    });
    expect(JSON.stringify(rows)).not.toContain(key);
    // Gone from the list; revoking again, or someone else's key, is a 404.
    expect((await get('/api/v1/me/api-keys', buyer.token)).body).not.toContain(id);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/me/api-keys/${id}`,
      headers: bearer(buyer.token),
    });
    expectAnswer(again, 404, { error: { message: 'API key not found.' } });
    const other = await buildApiKey(t.db, publisher.id, ['leads:read']);
    const stranger = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/me/api-keys/${other.id}`,
      headers: bearer(buyer.token),
    });
    expect(stranger.statusCode).toBe(404);
    expect((await get('/api/v1/me', other.key)).statusCode).toBe(200);
  });
});

describe('using a key', () => {
  it('acts as its user within its scopes', async () => {
    const { key } = await buildApiKey(t.db, publisher.id, ['leads:read']);
    expectAnswer(await get('/api/v1/me', key), 200, { id: publisher.id, role: 'publisher' });
    expect((await get('/api/v1/publisher/leads', key)).statusCode).toBe(200);
    expectAnswer(await get('/api/v1/publisher/reports', key), 403, {
      error: {
        code: 'api_key_scope',
        message:
          'This API key does not have the reports:read scope that GET /api/v1/publisher/reports needs.',
      },
    });
    // Its user's role still applies: a publisher's key is no admin.
    const wide = await buildApiKey(t.db, publisher.id, ['leads:read', 'reports:read']);
    expectAnswer(await get('/api/v1/admin/leads', wide.key), 403, {
      error: { code: 'forbidden', message: 'This area is for administrators only.' },
    });
  });

  it('refuses a key on routes keys may not use, key management among them', async () => {
    const { key } = await buildApiKey(t.db, admin.id, ['leads:read', 'leads:write']);
    expectAnswer(await create(key, { name: 'from a key', scopes: ['leads:read'] }), 403, {
      error: {
        code: 'api_key_not_allowed',
        message:
          'API keys cannot be used for POST /api/v1/me/api-keys: sign in to the portal for this.',
      },
    });
    expectAnswer(await get('/api/v1/me/api-keys', key), 403, {
      error: { code: 'api_key_not_allowed' },
    });
    expectAnswer(await get('/api/v1/admin/settings', key), 403, {
      error: { code: 'api_key_not_allowed' },
    });
  });

  it('refuses a revoked key, an expired key, an unknown key and a blocked user’s key with 401', async () => {
    const revoked = await buildApiKey(t.db, publisher.id, ['leads:read'], {
      revokedAt: new Date(),
    });
    expectAnswer(await get('/api/v1/me', revoked.key), 401, {
      error: {
        code: 'unauthorized',
        message: 'This API key was revoked. Create a new one under Profile → API keys.',
      },
    });
    const expiry = new Date(Date.now() - 1000);
    const expired = await buildApiKey(t.db, publisher.id, ['leads:read'], { expiresAt: expiry });
    expectAnswer(await get('/api/v1/publisher/leads', expired.key), 401, {
      error: {
        code: 'unauthorized',
        message: `This API key expired on ${expiry.toISOString()}. Create a new one under Profile → API keys.`,
      },
    });
    expectAnswer(await get('/api/v1/me', `pk_${'x'.repeat(43)}`), 401, {
      error: {
        code: 'unauthorized',
        message: expect.stringContaining('This API key is not valid'),
      },
    });
    const leaver = await buildPublisher(t.db);
    const theirs = await buildApiKey(t.db, leaver.id, ['leads:read']);
    expect((await get('/api/v1/me', theirs.key)).statusCode).toBe(200);
    await t.db.update(users).set({ status: 'blocked' }).where(eq(users.id, leaver.id));
    expectAnswer(await get('/api/v1/me', theirs.key), 401, {
      error: { message: 'The account this API key belongs to is blocked.' },
    });
  });

  it('revoking takes effect on the next request', async () => {
    const res = await create(publisher.token, { name: 'Short-lived', scopes: ['leads:read'] });
    const { id, key } = res.json();
    expect((await get('/api/v1/publisher/leads', key)).statusCode).toBe(200);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/me/api-keys/${id}`,
      headers: bearer(publisher.token),
    });
    expect((await get('/api/v1/publisher/leads', key)).statusCode).toBe(401);
  });

  it('never works on /auth/v1', async () => {
    const { key } = await buildApiKey(t.db, publisher.id, ['leads:read']);
    for (const [method, url] of [
      ['GET', '/auth/v1/user'],
      ['PUT', '/auth/v1/user'],
      ['POST', '/auth/v1/logout'],
      ['POST', '/auth/v1/factors'],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: { ...bearer(key), ...V, 'content-type': 'application/json' },
        ...(method === 'GET' ? {} : { payload: '{}' }),
      });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
      expect(res.json()).toMatchObject({
        error_code: 'bad_jwt',
        msg: 'API keys work on /api/v1 only: /auth/v1 needs a signed-in session token',
      });
    }
  });

  it('is rate limited per key, with Retry-After', async () => {
    const a = await buildApiKey(t.db, buyer.id, ['campaigns:read']);
    const b = await buildApiKey(t.db, buyer.id, ['campaigns:read']);
    for (let i = 0; i < 5; i++) expect((await get('/api/v1/me', a.key)).statusCode).toBe(200);
    const over = await get('/api/v1/buyer/campaigns', a.key);
    expectAnswer(over, 429, {
      error: {
        code: 'rate_limited',
        message: expect.stringContaining('This API key made more than 5 requests a minute.'),
      },
    });
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another key of the same user, and the user's own session, have buckets of their own.
    expect((await get('/api/v1/me', b.key)).statusCode).toBe(200);
    expect((await get('/api/v1/me', buyer.token)).statusCode).toBe(200);
  });

  it('writes the last-used time at most once a minute', async () => {
    const { key, id } = await buildApiKey(t.db, publisher.id, ['leads:read']);
    const lastUsed = async () =>
      (await t.db.select().from(apiKeys).where(eq(apiKeys.id, id)))[0]!.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    await get('/api/v1/me', key);
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    await get('/api/v1/me', key);
    expect(await lastUsed()).toEqual(first);
    // A minute later (set back by hand), the next request writes it again.
    const earlier = new Date(Date.now() - LAST_USED_EVERY_MS - 1000);
    await t.db.update(apiKeys).set({ lastUsedAt: earlier }).where(eq(apiKeys.id, id));
    await get('/api/v1/me', key);
    expect((await lastUsed())!.getTime()).toBeGreaterThan(earlier.getTime() + 30_000);
    const list = await get('/api/v1/me/api-keys', publisher.token);
    const item = list.json().items.find((k: { id: string }) => k.id === id);
    expect(item.last_used_at).not.toBeNull();
  });
});
