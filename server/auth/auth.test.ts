import { and, eq, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSessions, oneTimeTokens, refreshTokens, users } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../test/build-test-app.ts';
import { expectAnswer } from '../test/expect-answer.ts';
import { buildPublisher, buildUser, tokenFor } from '../test/factories.ts';
import {
  followLink,
  GOTRUE_VERSION,
  type GotrueRequest,
  getMe,
  gotrueCall,
  mailsTo,
  randomIp,
  verifyLinkIn,
} from '../test/gotrue.ts';
import { blockUser } from './sessions.ts';
import { signAccessToken } from './tokens.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const V = GOTRUE_VERSION;
let n = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${n++}@Example.test`;
type Req = GotrueRequest;
const call = (method: 'GET' | 'POST' | 'PUT', url: string, r: Req = {}) =>
  gotrueCall(t, method, url, r);
const signup = (body: unknown, r: Req = {}) => call('POST', '/auth/v1/signup', { body, ...r });
const grant = (grant_type: string, body: unknown, r: Req = {}) =>
  call('POST', '/auth/v1/token', { query: { grant_type }, body, ...r });
const signin = (e: string, password: string, r: Req = {}) =>
  grant('password', { email: e, password, gotrue_meta_security: {} }, r);
const refresh = (token: string, r: Req = {}) => grant('refresh_token', { refresh_token: token }, r);
const getUser = (token: string) => call('GET', '/auth/v1/user', { token });
/** A JSON POST written as is, with only the headers given (no version header unless given). */
const postRaw = (url: string, headers: Record<string, string>, payload: string) =>
  t.app.inject({ method: 'POST', url, headers, payload, remoteAddress: randomIp() });

const publisherData = {
  full_legal_name: 'Pat Publisher',
  business_legal_name: 'Pat Media LLC',
  address: '1 Main St, Springfield',
  phone_number: '+1 555 0100',
  whatsapp_number: '+1 555 0101',
  ms_teams_id: 'pat@teams',
};

/** The users row of this id. */
async function userRow(id: string) {
  const [row] = await t.db.select().from(users).where(eq(users.id, id));
  return row;
}

const mailsOf = (to: string) => mailsTo(t.db, to.toLowerCase());
const follow = (link: string, ip?: string) => followLink(t, link, ip);
const fragmentOf = (location: string) => new URLSearchParams(location.split('#')[1]);

async function sessionFor(e: string, password: string) {
  const res = await signin(e, password);
  expect(res.statusCode).toBe(200);
  return res.json() as { access_token: string; refresh_token: string; user: { id: string } };
}

/** A new publisher (buildPublisher) signed in with their password: the user and the session. */
async function publisherSession() {
  const u = await buildPublisher(t.db);
  return { u, s: await sessionFor(u.email, u.password) };
}

describe('POST /auth/v1/signup', () => {
  it('creates a pending publisher from the sign-up data and answers the bare user', async () => {
    const address = email('Pub');
    const res = await signup({
      email: address,
      password: 'secret-123',
      data: publisherData,
      gotrue_meta_security: {},
      code_challenge: null,
      code_challenge_method: null,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.access_token).toBeUndefined();
    expect(body).toMatchObject({
      aud: 'authenticated',
      role: 'authenticated',
      email: address.toLowerCase(),
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { ...publisherData, email_verified: true },
      is_anonymous: false,
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.email_confirmed_at).toEqual(expect.any(String));
    expect(body.identities).toHaveLength(1);
    expect(body.identities[0]).toMatchObject({
      id: body.id,
      user_id: body.id,
      provider: 'email',
      identity_data: { sub: body.id, email: address.toLowerCase(), phone_verified: false },
    });
    const row = await userRow(body.id);
    expect(row).toMatchObject({
      role: 'publisher',
      status: 'pending',
      name: 'Pat Publisher',
      businessLegalName: 'Pat Media LLC',
      address: '1 Main St, Springfield',
      phoneNumber: '+1 555 0100',
      whatsappNumber: '+1 555 0101',
      msTeamsId: 'pat@teams',
    });
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await mailsOf(address)).toHaveLength(0);

    // No confirmation needed: sign-in works at once, pending or not.
    const session = await signin(address.toUpperCase(), 'secret-123');
    expect(session.statusCode).toBe(200);
  });

  it('creates an active buyer who must confirm by the mailed link before signing in', async () => {
    const address = email('buyer');
    const res = await signup(
      {
        email: address,
        password: 'buyer-pass',
        data: { full_name: 'Bea Buyer', company_name: 'Bea Corp', role: 'buyer' },
      },
      { query: { redirect_to: 'http://localhost:3000/login' } },
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.confirmation_sent_at).toEqual(expect.any(String));
    expect(body.email_confirmed_at).toBeUndefined();
    expect(body.confirmed_at).toBeUndefined();
    expect(body.user_metadata).toEqual({
      full_name: 'Bea Buyer',
      company_name: 'Bea Corp',
      role: 'buyer',
    });
    expect(await userRow(body.id)).toMatchObject({
      role: 'buyer',
      status: 'active',
      name: 'Bea Buyer',
      businessLegalName: 'Bea Corp',
    });

    const refused = await signin(address, 'buyer-pass');
    expectAnswer(refused, 400, {
      code: 'email_not_confirmed',
      message: 'Email not confirmed',
    });

    const mails = await mailsOf(address);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe('Confirm your e-mail address for MR.LEADS Network');
    expect(mail.text).toContain('support@example.com');
    expect(mail.html).toContain('MR.LEADS Network');
    const link = verifyLinkIn(mail.text);
    const url = new URL(link);
    expect(url.searchParams.get('type')).toBe('signup');
    expect(url.searchParams.get('redirect_to')).toBe('http://localhost:3000/login');
    expect(url.searchParams.get('token')).toMatch(/^[0-9a-f]{56}$/);
    // Only the hash is stored.
    const stored = await t.db.select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, body.id));
    expect(stored.map((s) => s.tokenHash)).not.toContain(url.searchParams.get('token'));

    const verified = await follow(link);
    expect(verified.statusCode).toBe(303);
    const location = verified.headers.location as string;
    expect(location.startsWith('http://localhost:3000/login#access_token=')).toBe(true);
    const keys = [...fragmentOf(location).keys()];
    expect(keys).toEqual([
      'access_token',
      'expires_at',
      'expires_in',
      'refresh_token',
      'sb',
      'token_type',
      'type',
    ]);
    const f = fragmentOf(location);
    expect(f.get('type')).toBe('signup');
    expect(f.get('token_type')).toBe('bearer');
    expect(f.get('expires_in')).toBe('3600');
    const me = await getUser(f.get('access_token')!);
    expect(me.statusCode).toBe(200);
    expect(me.json().email_confirmed_at).toEqual(expect.any(String));
    expect(me.json().user_metadata.email_verified).toBe(true);
    expect(decodeJwt(f.get('access_token')!).amr).toEqual([
      { method: 'otp', timestamp: expect.any(Number) },
    ]);

    expect((await signin(address, 'buyer-pass')).statusCode).toBe(200);

    // The link works once.
    const again = await follow(link);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(
      'http://localhost:3000/login#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired&sb=',
    );
  });

  it('refuses any role but buyer in the sign-up data, admin included', async () => {
    for (const role of ['admin', 'superuser', 'publisher', 7]) {
      const address = email('role');
      const res = await signup({ email: address, password: 'secret-123', data: { role } });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().message).toMatch(/publishers or buyers/);
      const rows = await t.db
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = ${address.toLowerCase()}`);
      expect(rows).toHaveLength(0);
    }
  });

  it('checks the password before the e-mail, with GoTrue codes', async () => {
    const empty = await signup({ email: 'not an email', password: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().code).toBe('validation_failed');

    const long = await signup({ email: email('long'), password: 'x'.repeat(73) });
    expect(long.statusCode).toBe(400);
    expect(long.json().code).toBe('validation_failed');
    expect(long.json().message).toContain('72');

    const weak = await signup({ email: 'not an email', password: 'abc' });
    expect(weak.statusCode).toBe(422);
    expect(weak.json()).toEqual({
      code: 'weak_password',
      message: 'Password should be at least 6 characters.',
      error_code: 'weak_password',
      msg: 'Password should be at least 6 characters.',
      weak_password: { reasons: ['length'] },
    });

    const bad = await signup({ email: 'not an email', password: 'secret-123' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Unable to validate email address: invalid format');
  });

  it('does not reveal a registered address: a made-up user, the password unchanged', async () => {
    const pub = await buildPublisher(t.db);
    const res = await signup({ email: pub.email, password: 'other-pass-1', data: publisherData });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.id).not.toBe(pub.id);
    expect(body.identities).toEqual([]);
    expect(body.email).toBe(pub.email);
    expect((await signin(pub.email, 'other-pass-1')).statusCode).toBe(400);
    expect((await signin(pub.email, pub.password)).statusCode).toBe(200);
  });

  it('sends the confirmation again for an unconfirmed buyer, at most once a minute', async () => {
    const address = email('again');
    const first = await signup({
      email: address,
      password: 'buyer-pass',
      data: { full_name: 'A', role: 'buyer' },
    });
    const id = first.json().id;
    const soon = await signup({
      email: address,
      password: 'changed-pass',
      data: { full_name: 'B', role: 'buyer' },
    });
    expect(soon.statusCode).toBe(429);
    expect(soon.json().code).toBe('over_email_send_rate_limit');
    expect(soon.json().message).toMatch(
      /^For security purposes, you can only request this after (60|59|58) seconds\.$/,
    );

    await t.db
      .update(users)
      .set({ confirmationSentAt: new Date(Date.now() - 61_000) })
      .where(eq(users.id, id));
    const later = await signup({
      email: address,
      password: 'changed-pass',
      data: { full_name: 'B', role: 'buyer' },
    });
    expect(later.statusCode).toBe(200);
    expect(later.json().id).toBe(id);
    expect(later.json().user_metadata.full_name).toBe('A');
    expect(await mailsOf(address)).toHaveLength(2);
    expect((await userRow(id))!.name).toBe('A');
  });

  it('with AUTH_AUTOCONFIRM answers a Session and refuses a repeat with user_already_exists', async () => {
    t.config.authAutoconfirm = true;
    try {
      const address = email('auto');
      const res = await signup({
        email: address,
        password: 'buyer-pass',
        data: { full_name: 'Auto Buyer', role: 'buyer' },
      });
      expect(res.statusCode).toBe(200);
      const s = res.json();
      expect(s).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
      expect(s.access_token).toEqual(expect.any(String));
      expect(s.refresh_token).toEqual(expect.any(String));
      expect(s.user.email_confirmed_at).toEqual(expect.any(String));
      expect(s.user.last_sign_in_at).toEqual(expect.any(String));
      expect(await mailsOf(address)).toHaveLength(0);

      const repeat = await signup({ email: address, password: 'buyer-pass' });
      expectAnswer(repeat, 422, {
        code: 'user_already_exists',
        message: 'User already registered',
      });
    } finally {
      t.config.authAutoconfirm = false;
    }
  });
});

describe('POST /auth/v1/token?grant_type=password', () => {
  it('answers a whole Session with GoTrue claims in the access token', async () => {
    const u = await buildPublisher(t.db);
    const before = Math.floor(Date.now() / 1000);
    const res = await signin(u.email, u.password);
    expect(res.statusCode).toBe(200);
    const s = res.json();
    expect(s).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(s.expires_at).toBeGreaterThanOrEqual(before + 3600);
    expect(s.expires_at).toBeLessThanOrEqual(before + 3602);
    expect(s.refresh_token.length).toBeGreaterThanOrEqual(22);
    expect(s.user).toMatchObject({ id: u.id, email: u.email });
    expect(s.user.last_sign_in_at).toEqual(expect.any(String));
    expect(s.weak_password).toBeUndefined();
    const claims = decodeJwt(s.access_token);
    expect(claims).toMatchObject({
      sub: u.id,
      aud: 'authenticated',
      role: 'authenticated',
      aal: 'aal1',
      email: u.email,
      phone: '',
      is_anonymous: false,
      exp: s.expires_at,
    });
    const [session] = await t.db
      .select()
      .from(authSessions)
      .where(eq(authSessions.id, claims.session_id as string));
    expect(session?.userId).toBe(u.id);
    // Refresh tokens are stored only as hashes.
    const stored = await t.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.sessionId, session!.id));
    expect(stored.map((r) => r.tokenHash)).not.toContain(s.refresh_token);
  });

  it('answers invalid_credentials for a wrong password, an unknown e-mail or no password', async () => {
    const u = await buildPublisher(t.db);
    for (const res of [
      await signin(u.email, 'wrong-password'),
      await signin(email('nobody'), 'whatever-1'),
      await signin(u.email, ''),
    ]) {
      expectAnswer(res, 400, {
        code: 'invalid_credentials',
        message: 'Invalid login credentials',
      });
    }
  });

  it('wants exactly one of e-mail and phone', async () => {
    const res = await grant('password', { password: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    const both = await grant('password', { email: 'a@b.c', phone: '+1555', password: 'x' });
    expect(both.json().code).toBe('validation_failed');
  });

  it('refuses a blocked user before checking the password, naming the support e-mail', async () => {
    const u = await buildPublisher(t.db, { status: 'blocked' });
    for (const password of [u.password, 'wrong-password']) {
      const res = await signin(u.email, password);
      expectAnswer(res, 400, {
        code: 'user_banned',
        message: 'Your account has been blocked. Please contact support@example.com for help.',
      });
    }
  });

  it('reads grant_type from the query string only, and refuses unknown grants', async () => {
    const res = await grant('magic', { email: 'a@b.c', password: 'secret' });
    expectAnswer(res, 400, {
      code: 'invalid_credentials',
      message: 'unsupported_grant_type',
    });
  });
});

describe('error format', () => {
  it('echoes X-Supabase-Api-Version and sends code, message, error_code and msg', async () => {
    const res = await signin(email('x'), 'whatever-1');
    expect(res.headers['x-supabase-api-version']).toBe('2024-01-01');
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    });
  });

  it('sends the legacy body without the version header', async () => {
    const res = await postRaw(
      '/auth/v1/token?grant_type=password',
      { 'content-type': 'application/json' },
      JSON.stringify({ email: 'nobody@example.test', password: 'whatever-1' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.headers['x-supabase-api-version']).toBeUndefined();
    expect(res.json()).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    });
  });

  it('answers bad JSON with bad_json and a wrong type with validation_failed', async () => {
    const bad = await postRaw(
      '/auth/v1/signup',
      { ...V, 'content-type': 'application/json' },
      '{"email": ',
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('bad_json');
    const wrong = await signup({ email: 42, password: 'secret-123' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('validation_failed');
    expect(wrong.json().message).toContain('email');
  });

  it('answers an unknown auth path with JSON 404', async () => {
    const res = await call('GET', '/auth/v1/nothing');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
  });
});

describe('refresh tokens', () => {
  it('rotates, hands the unused active token to a just-rotated parent, and revokes the session on replay', async () => {
    const { u, s: s0 } = await publisherSession();
    const r1 = await refresh(s0.refresh_token);
    expect(r1.statusCode).toBe(200);
    const s1 = r1.json();
    expect(s1.refresh_token).not.toBe(s0.refresh_token);
    expect(s1.user.id).toBe(u.id);
    expect(s1.expires_in).toBe(3600);
    expect(decodeJwt(s1.access_token).session_id).toBe(decodeJwt(s0.access_token).session_id);

    // The parent of the active token (a tab that lost the answer) gets the active one back.
    const again = await refresh(s0.refresh_token);
    expect(again.statusCode).toBe(200);
    expect(again.json().refresh_token).toBe(s1.refresh_token);

    const s2 = (await refresh(s1.refresh_token)).json();
    expect(s2.refresh_token).not.toBe(s1.refresh_token);

    // s0's child has been used since: replaying s0 now is theft and the whole session ends.
    const reused = await refresh(s0.refresh_token);
    expectAnswer(reused, 400, {
      code: 'refresh_token_already_used',
      message: 'Invalid Refresh Token: Already Used',
    });
    const gone = await getUser(s2.access_token);
    expect(gone.statusCode).toBe(403);
    expect(gone.json().code).toBe('session_not_found');
    const dead = await refresh(s2.refresh_token);
    expect(dead.json().code).toBe('refresh_token_not_found');
  });

  it('gives two tabs refreshing the same token at once the same new token', async () => {
    const { u, s: s0 } = await publisherSession();
    const [a, b] = await Promise.all([refresh(s0.refresh_token), refresh(s0.refresh_token)]);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json().refresh_token).toBe(b.json().refresh_token);
    const active = await t.db
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.userId, u.id), eq(refreshTokens.revoked, false)));
    expect(active).toHaveLength(1);
  });

  it('answers refresh_token_not_found for an unknown token and validation_failed for a bad one', async () => {
    const unknown = await refresh('abcdefghijklmnopqrstuvwx');
    expectAnswer(unknown, 400, {
      code: 'refresh_token_not_found',
      message: 'Invalid Refresh Token: Refresh Token Not Found',
    });
    expect((await refresh('short')).json().code).toBe('validation_failed');
    expect((await refresh('')).json().code).toBe('validation_failed');
  });

  it('refuses a blocked user at refresh', async () => {
    const { u, s } = await publisherSession();
    await t.db.update(users).set({ status: 'blocked' }).where(eq(users.id, u.id));
    const res = await refresh(s.refresh_token);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('user_banned');
    expect(res.json().message).toContain('support@example.com');
  });
});

describe('GET /auth/v1/user', () => {
  it('answers the bare user for a live session', async () => {
    const u = await buildPublisher(t.db, { userMetadata: { full_legal_name: 'Meta Name' } });
    const s = await sessionFor(u.email, u.password);
    const res = await getUser(s.access_token);
    expectAnswer(res, 200, {
      id: u.id,
      email: u.email,
      phone: '',
      user_metadata: { full_legal_name: 'Meta Name' },
    });
  });

  it('answers GoTrue codes for a missing, broken, expired or foreign token', async () => {
    const none = await call('GET', '/auth/v1/user');
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('no_authorization');

    const garbage = await getUser('not.a.jwt');
    expect(garbage.statusCode).toBe(403);
    expect(garbage.json().code).toBe('bad_jwt');

    const u = await buildPublisher(t.db);
    // Claims of a session that does not exist, signed expired or with another secret.
    const claims = {
      userId: u.id,
      email: u.email,
      sessionId: '00000000-0000-4000-8000-000000000000',
      amr: [],
      userMetadata: {},
      expiresIn: 60,
    };
    const { token: expired } = await signAccessToken(t.config.jwtSecret, {
      ...claims,
      now: Math.floor(Date.now() / 1000) - 120,
    });
    const old = await getUser(expired);
    expect(old.statusCode).toBe(403);
    expect(old.json().code).toBe('bad_jwt');

    const { token: foreign } = await signAccessToken('another-secret-another-secret-123', claims);
    expect((await getUser(foreign)).json().code).toBe('bad_jwt');
  });

  it('answers user_banned for a blocked user that still holds a token', async () => {
    const u = await buildPublisher(t.db);
    const token = await tokenFor(t.db, t.config.jwtSecret, u);
    await t.db.update(users).set({ status: 'blocked' }).where(eq(users.id, u.id));
    const res = await getUser(token);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('user_banned');
  });
});

describe('PUT /auth/v1/user', () => {
  it('changes the password and ends the other sessions, keeping this one', async () => {
    const u = await buildUser(t.db, { password: 'first-pass' });
    const a = await sessionFor(u.email, 'first-pass');
    const b = await sessionFor(u.email, 'first-pass');
    const res = await call('PUT', '/auth/v1/user', {
      token: a.access_token,
      body: { password: 'second-pass', code_challenge: null, code_challenge_method: null },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(u.id);
    expect((await getUser(a.access_token)).statusCode).toBe(200);
    expect((await getUser(b.access_token)).json().code).toBe('session_not_found');
    expect((await refresh(b.refresh_token)).json().code).toBe('refresh_token_not_found');
    expect((await signin(u.email, 'first-pass')).statusCode).toBe(400);
    expect((await signin(u.email, 'second-pass')).statusCode).toBe(200);
  });

  it('refuses a weak, an unchanged or an over-long password', async () => {
    const u = await buildUser(t.db, { password: 'first-pass' });
    const s = await sessionFor(u.email, 'first-pass');
    const put = (password: string) =>
      call('PUT', '/auth/v1/user', { token: s.access_token, body: { password } });
    const weak = await put('12345');
    expectAnswer(weak, 422, {
      code: 'weak_password',
      message: 'Password should be at least 6 characters.',
      weak_password: { reasons: ['length'] },
    });
    const same = await put('first-pass');
    expect(same.statusCode).toBe(422);
    expect(same.json().code).toBe('same_password');
    const long = await put('é'.repeat(37));
    expect(long.statusCode).toBe(400);
    expect(long.json().code).toBe('validation_failed');
    expect((await signin(u.email, 'first-pass')).statusCode).toBe(200);
  });

  it('needs a bearer token', async () => {
    const res = await call('PUT', '/auth/v1/user', { body: { password: 'whatever-1' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('no_authorization');
  });
});

describe('POST /auth/v1/logout', () => {
  const logout = (token: string, scope?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/auth/v1/logout${scope ? `?scope=${scope}` : ''}`,
      headers: { ...V, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      remoteAddress: randomIp(),
    });

  it('accepts an empty body, answers 204 and refuses the old token at once (global default)', async () => {
    const { u, s: a } = await publisherSession();
    const b = await sessionFor(u.email, u.password);
    const res = await logout(a.access_token);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await getUser(a.access_token)).json().code).toBe('session_not_found');
    expect((await getUser(b.access_token)).json().code).toBe('session_not_found');
    const api = await getMe(t, a.access_token);
    expect(api.statusCode).toBe(401);
    expect((await logout(a.access_token)).statusCode).toBe(403);
  });

  it('ends only this session with scope=local, only the others with scope=others', async () => {
    const { u, s: a } = await publisherSession();
    const b = await sessionFor(u.email, u.password);
    const c = await sessionFor(u.email, u.password);
    expect((await logout(a.access_token, 'local')).statusCode).toBe(204);
    expect((await getUser(a.access_token)).statusCode).toBe(403);
    expect((await getUser(b.access_token)).statusCode).toBe(200);
    expect((await logout(b.access_token, 'others')).statusCode).toBe(204);
    expect((await getUser(b.access_token)).statusCode).toBe(200);
    expect((await getUser(c.access_token)).statusCode).toBe(403);
  });

  it('refuses an unknown scope', async () => {
    const { s: a } = await publisherSession();
    const res = await logout(a.access_token, 'everyone');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    expect((await getUser(a.access_token)).statusCode).toBe(200);
  });
});

describe('password recovery', () => {
  const recover = (e: unknown, redirectTo?: string) =>
    call('POST', '/auth/v1/recover', {
      body: { email: e, code_challenge: null, code_challenge_method: null },
      query: redirectTo ? { redirect_to: redirectTo } : undefined,
    });

  it('answers {} for an unknown address and sends nothing', async () => {
    const address = email('ghost');
    const res = await recover(address);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect(await mailsOf(address)).toHaveLength(0);
  });

  it('mails a one-time link that signs in with type=recovery on the allowed redirect', async () => {
    const u = await buildPublisher(t.db);
    const res = await recover(u.email.toUpperCase(), 'http://localhost:3000/reset-password');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    const [mail] = await mailsOf(u.email);
    expect(mail!.subject).toBe('Reset your MR.LEADS Network password');
    expect(mail!.html).toContain('support@example.com');
    const link = verifyLinkIn(mail!.text);
    expect(new URL(link).searchParams.get('type')).toBe('recovery');
    expect(new URL(link).searchParams.get('redirect_to')).toBe(
      'http://localhost:3000/reset-password',
    );

    const again = await recover(u.email);
    expect(again.statusCode).toBe(429);
    expect(again.json().code).toBe('over_email_send_rate_limit');

    const v = await follow(link);
    expect(v.statusCode).toBe(303);
    const location = v.headers.location as string;
    expect(location).toMatch(
      /^http:\/\/localhost:3000\/reset-password#access_token=[^&]+&expires_at=\d+&expires_in=3600&refresh_token=[^&]+&sb=&token_type=bearer&type=recovery$/,
    );
    const token = fragmentOf(location).get('access_token')!;
    const put = await call('PUT', '/auth/v1/user', {
      token,
      body: { password: 'brand-new-pass' },
    });
    expect(put.statusCode).toBe(200);
    expect((await signin(u.email, 'brand-new-pass')).statusCode).toBe(200);
  });

  it('ignores a redirect to another origin and uses PUBLIC_URL', async () => {
    const u = await buildPublisher(t.db);
    await recover(u.email, 'https://evil.example/steal');
    const [mail] = await mailsOf(u.email);
    const link = verifyLinkIn(mail!.text);
    expect(new URL(link).searchParams.get('redirect_to')).toBe('http://localhost:3000/');
    const tampered = new URL(link);
    tampered.searchParams.set('redirect_to', 'https://evil.example/steal');
    const v = await follow(tampered.toString());
    expect(v.statusCode).toBe(303);
    expect(v.headers.location).toMatch(/^http:\/\/localhost:3000\/#access_token=/);
  });

  it('redirects with otp_expired for a link older than 24 hours', async () => {
    const u = await buildPublisher(t.db);
    await recover(u.email, 'http://localhost:3000/reset-password');
    const [mail] = await mailsOf(u.email);
    await t.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(oneTimeTokens.userId, u.id), eq(oneTimeTokens.tokenType, 'recovery')));
    const v = await follow(verifyLinkIn(mail!.text));
    expect(v.statusCode).toBe(303);
    expect(v.headers.location).toBe(
      'http://localhost:3000/reset-password#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired&sb=',
    );
  });

  it('refuses a malformed address', async () => {
    const res = await recover('nope');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
  });

  it('answers JSON 400 for /verify without a type or token', async () => {
    for (const url of [
      '/auth/v1/verify?token=abc',
      '/auth/v1/verify?type=recovery',
      '/auth/v1/verify?token=abc&type=invite',
    ]) {
      const res = await call('GET', url);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });
});

describe('blocking', () => {
  it('blockUser ends every session at once and sign-in is refused', async () => {
    const { u, s } = await publisherSession();
    expect(await blockUser(t.db, u.id)).toBe(true);
    expect((await getUser(s.access_token)).json().code).toBe('session_not_found');
    expect((await refresh(s.refresh_token)).json().code).toBe('refresh_token_not_found');
    expect((await signin(u.email, u.password)).json().code).toBe('user_banned');
    expect(await blockUser(t.db, '00000000-0000-4000-8000-000000000000')).toBe(false);
  });
});

describe('per-IP rate limits', () => {
  it('lets a burst of 30 /token requests through, then answers 429 for that address only', async () => {
    const ip = randomIp();
    for (let i = 0; i < 30; i++) {
      const res = await grant('refresh_token', { refresh_token: 'short' }, { ip });
      expect(res.statusCode).toBe(400);
    }
    const limited = await grant('password', { email: 'a@b.c', password: 'whatever-1' }, { ip });
    expectAnswer(limited, 429, {
      code: 'over_request_rate_limit',
      message: 'Request rate limit reached',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const other = await grant('refresh_token', { refresh_token: 'short' });
    expect(other.statusCode).toBe(400);
  });

  it('limits /signup and /recover (with /resend) to 30 per 5 minutes each', async () => {
    const ip = randomIp();
    for (let i = 0; i < 30; i++) {
      expect((await signup({ email: 'bad', password: 'secret-123' }, { ip })).statusCode).toBe(400);
    }
    const res = await signup({ email: email('late'), password: 'secret-123' }, { ip });
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('over_request_rate_limit');
    for (let i = 0; i < 15; i++) {
      expect(
        (await call('POST', '/auth/v1/recover', { body: { email: 'bad' }, ip })).statusCode,
      ).toBe(400);
      const resent = await call('POST', '/auth/v1/resend', {
        body: { type: 'signup', email: 'bad' },
        ip,
      });
      expect(resent.statusCode).toBe(400);
    }
    const late = await call('POST', '/auth/v1/recover', { body: { email: email('x') }, ip });
    expect(late.statusCode).toBe(429);
  });

  it('limits /verify to 30 per 5 minutes', async () => {
    const ip = randomIp();
    for (let i = 0; i < 30; i++) {
      const res = await call('GET', '/auth/v1/verify?type=signup&token=nothing', { ip });
      expect(res.statusCode).toBe(303);
    }
    const res = await call('GET', '/auth/v1/verify?type=signup&token=nothing', { ip });
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('over_request_rate_limit');
  });
});

describe('GET /api/v1/me', () => {
  it('answers the signed-in user profile from the sign-up data', async () => {
    const address = email('me');
    await signup({ email: address, password: 'secret-123', data: publisherData });
    const s = await sessionFor(address, 'secret-123');
    const res = await getMe(t, s.access_token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: s.user.id,
      email: address.toLowerCase(),
      role: 'publisher',
      status: 'pending',
      name: 'Pat Publisher',
      business_legal_name: 'Pat Media LLC',
      phone_number: '+1 555 0100',
      whatsapp_number: '+1 555 0101',
      ms_teams_id: 'pat@teams',
      address: '1 Main St, Springfield',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      // MFA_REQUIRED_FOR is admin by default: publishers may enrol but need not.
      mfa_required: false,
    });
  });

  it('answers 401 without a token', async () => {
    const res = await t.app.inject({ url: '/api/v1/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('unauthorized');
  });
});
