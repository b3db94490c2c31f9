import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../test/build-test-app.ts';
import { buildAdmin, buildPublisher, tokenFor } from '../test/factories.ts';
import { GOTRUE_JSON_HEADERS, getAuthUser, getMe, passwordSession } from '../test/gotrue.ts';

// GET /api/v1/me answers from one statement and the guard remembers verified token signatures
// (server/auth/tokens.ts, verifyAccessTokenCached). What a user notices must not change: a token
// whose session ended stops working on the very next request, whatever was remembered before.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

const V = GOTRUE_JSON_HEADERS;
const signIn = (email: string, password: string) => passwordSession(t, email, password);
const me = (access: string) => getMe(t, access);

describe('revocation with remembered token signatures', () => {
  it('/me answers the profile read on this request', async () => {
    const u = await buildPublisher(t.db);
    const s = await signIn(u.email, u.password);
    const first = await me(s.access_token);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.json()).toMatchObject({ id: u.id, email: u.email, role: 'publisher' });
    await t.db.update(users).set({ name: 'Renamed Person' }).where(eq(users.id, u.id));
    expect((await me(s.access_token)).json().name).toBe('Renamed Person');
  });

  it('sign-out ends that token at once; the other session keeps working', async () => {
    const u = await buildPublisher(t.db);
    const a = await signIn(u.email, u.password);
    const b = await signIn(u.email, u.password);
    expect((await me(a.access_token)).statusCode).toBe(200);
    expect((await me(b.access_token)).statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/logout?scope=local',
      headers: { ...V, authorization: `Bearer ${a.access_token}` },
    });
    expect(out.statusCode).toBe(204);
    expect((await me(a.access_token)).statusCode).toBe(401);
    expect((await me(b.access_token)).statusCode).toBe(200);
  });

  it('a password change ends the other sessions at once', async () => {
    const u = await buildPublisher(t.db);
    const other = await signIn(u.email, u.password);
    const mine = await signIn(u.email, u.password);
    expect((await me(other.access_token)).statusCode).toBe(200);
    const put = await t.app.inject({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: { ...V, authorization: `Bearer ${mine.access_token}` },
      payload: JSON.stringify({ password: 'a-new-password-9' }),
    });
    expect(put.statusCode).toBe(200);
    expect((await me(other.access_token)).statusCode).toBe(401);
    expect((await me(mine.access_token)).statusCode).toBe(200);
  });

  it('blocking a publisher ends their signed-in token on the next request', async () => {
    const admin = await buildAdmin(t.db);
    const adminToken = await tokenFor(t.db, t.config.jwtSecret, admin);
    const u = await buildPublisher(t.db);
    const s = await signIn(u.email, u.password);
    expect((await me(s.access_token)).statusCode).toBe(200);
    const block = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/admin/publishers/${u.id}`,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ status: 'blocked', reason: 'policy_violation' }),
    });
    expect(block.statusCode).toBe(200);
    const after = await me(s.access_token);
    expect(after.statusCode).toBe(401);
    expect(after.json().error.message).toContain('sign in again');
  });

  it('a remembered token still expires at its exp', async () => {
    const u = await buildPublisher(t.db);
    const s = await signIn(u.email, u.password);
    expect((await me(s.access_token)).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (t.config.jwtExpiry + 1) * 1000 });
    expect((await me(s.access_token)).statusCode).toBe(401);
    const user = await getAuthUser(t, s.access_token);
    expect(user.statusCode).toBe(403);
    expect(user.json().msg).toContain('token is expired');
  });

  it('a remembered token with its signature altered is refused', async () => {
    const u = await buildPublisher(t.db);
    const s = await signIn(u.email, u.password);
    expect((await me(s.access_token)).statusCode).toBe(200);
    const [h, p, sig] = s.access_token.split('.') as [string, string, string];
    // The first character carries six whole bits of the signature (the last one partly padding).
    const flipped = `${h}.${p}.${sig.startsWith('A') ? 'B' : 'A'}${sig.slice(1)}`;
    expect((await me(flipped)).statusCode).toBe(401);
    // A payload changed under the remembered signature is a different text: checked, refused.
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
    // Another user's id: the last hex digit changed (to 1 when it already is 0, else the
    // payload would be the same text and rightly accepted; 1 run in 16 failed so).
    const other = u.id.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    expect(other).not.toBe(u.id);
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: other }));
    expect((await me(`${h}.${forged.toString('base64url')}.${sig}`)).statusCode).toBe(401);
  });
});
