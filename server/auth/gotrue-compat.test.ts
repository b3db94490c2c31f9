import { eq } from 'drizzle-orm';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSessions, users } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../test/build-test-app.ts';
import { buildUser } from '../test/factories.ts';
import {
  followLink,
  GOTRUE_VERSION,
  gotrueCall,
  mailsTo,
  randomIp,
  verifyLinkIn,
} from '../test/gotrue.ts';
import { signAccessToken } from './tokens.ts';

// GoTrue behaviour that auth-js apps rely on beyond sign-in: resend, metadata, e-mail change,
// reauthentication, configurable limits, the probe endpoints, disabled features, JWKS, CORS.
let t: TestApp; // defaults
let u: TestApp; // every limit 2, ES256, one CORS origin
const ORIGIN = 'https://app.example.test';

beforeAll(async () => {
  // One after the other: two at once can starve a small machine past Fastify's plugin timeout.
  t = await buildTestApp();
  u = await buildTestApp({
    env: {
      AUTH_RATE_LIMIT_TOKEN: '2',
      AUTH_RATE_LIMIT_SIGNUP: '2',
      AUTH_RATE_LIMIT_RECOVER: '2',
      AUTH_RATE_LIMIT_VERIFY: '2',
      AUTH_RATE_LIMIT_USER_UPDATE: '2',
      JWT_ALG: 'ES256',
      CORS_ORIGINS: `${ORIGIN}, http://localhost:5173`,
    },
  });
  // Two migrated databases: on a busy 2-core CI machine this can take more than a minute.
}, 180_000);
afterAll(async () => {
  await Promise.all([t?.close(), u?.close()]);
});

const V = GOTRUE_VERSION;
let n = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${n++}@example.test`;
const call = gotrueCall;

async function signIn(app: TestApp, address: string, password: string) {
  const res = await call(app, 'POST', '/auth/v1/token?grant_type=password', {
    body: { email: address, password },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { access_token: string; refresh_token: string; user: { id: string } };
}

describe('POST /auth/v1/resend', () => {
  it('mails the confirmation again once a minute and answers {} for any address', async () => {
    const buyer = email('buyer');
    const signup = await call(t, 'POST', '/auth/v1/signup', {
      body: { email: buyer, password: 'buyer-pass', data: { role: 'buyer', full_name: 'B' } },
    });
    expect(signup.statusCode).toBe(200);
    expect(await mailsTo(t.db, buyer)).toHaveLength(1);
    // Within the 60 s of the sign-up mail: GoTrue's per-user gap.
    const early = await call(t, 'POST', '/auth/v1/resend', {
      body: { type: 'signup', email: buyer },
    });
    expect(early.statusCode).toBe(429);
    expect(early.json().code).toBe('over_email_send_rate_limit');
    expect(early.json().message).toMatch(/only request this after \d+ seconds/);
    await t.db
      .update(users)
      .set({ confirmationSentAt: new Date(Date.now() - 61_000) })
      .where(eq(users.email, buyer));
    const again = await call(t, 'POST', '/auth/v1/resend', {
      body: { type: 'signup', email: buyer },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({});
    const mails = await mailsTo(t.db, buyer);
    expect(mails).toHaveLength(2);
    // The newest link confirms the account.
    const verified = await followLink(t, verifyLinkIn(mails[0]!.text));
    expect(verified.headers.location).toContain('type=signup');
    await signIn(t, buyer, 'buyer-pass');

    // No enumeration: unknown, confirmed and unconfirmed answer the same.
    for (const address of [email('nobody'), buyer]) {
      const res = await call(t, 'POST', '/auth/v1/resend', {
        body: { type: 'signup', email: address },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({});
    }
    expect(await mailsTo(t.db, buyer)).toHaveLength(2);
  });

  it('refuses an unknown type, a missing address and phone types with GoTrue codes', async () => {
    const cases: [unknown, number, string][] = [
      [{ type: 'magic', email: 'a@b.c' }, 400, 'validation_failed'],
      [{ type: 'signup' }, 400, 'validation_failed'],
      [{ type: 'signup', email: 'not-an-address' }, 400, 'validation_failed'],
      [{ type: 'sms', phone: '+15550100' }, 400, 'phone_provider_disabled'],
    ];
    for (const [body, status, code] of cases) {
      const res = await call(t, 'POST', '/auth/v1/resend', { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().code).toBe(code);
    }
  });
});

describe('PUT /auth/v1/user {data}', () => {
  it('merges into user_metadata, null removes a key, role and profile columns stay', async () => {
    const pub = await buildUser(t.db, { password: 'pub-pass-1', role: 'publisher' });
    const before = (await t.db.select().from(users).where(eq(users.id, pub.id)))[0]!;
    const s = await signIn(t, pub.email, 'pub-pass-1');
    const put = (data: unknown) =>
      call(t, 'PUT', '/auth/v1/user', { token: s.access_token, body: { data } });
    const first = await put({ theme: 'dark', role: 'admin', name: 'Mallory', status: 'approved' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().user_metadata).toMatchObject({ theme: 'dark', role: 'admin' });
    const second = await put({ theme: null, lang: 'de' });
    expect(second.json().user_metadata.theme).toBeUndefined();
    expect(second.json().user_metadata).toMatchObject({ lang: 'de', role: 'admin' });
    const after = (await t.db.select().from(users).where(eq(users.id, pub.id)))[0]!;
    expect({ role: after.role, status: after.status, name: after.name }).toEqual({
      role: before.role,
      status: before.status,
      name: before.name,
    });
    const me = await call(t, 'GET', '/api/v1/me', { token: s.access_token });
    expect(me.json().role).toBe('publisher');
  });

  it('refuses metadata over 16 KB with 400 and keeps the old', async () => {
    const user = await buildUser(t.db, { password: 'meta-pass-1' });
    const s = await signIn(t, user.email, 'meta-pass-1');
    const res = await call(t, 'PUT', '/auth/v1/user', {
      token: s.access_token,
      body: { data: { blob: 'x'.repeat(17 * 1024) } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('16 KB'),
    });
    const me = await call(t, 'GET', '/auth/v1/user', { token: s.access_token });
    expect(me.json().user_metadata.blob).toBeUndefined();
  });
});

describe('PUT /auth/v1/user {email}', () => {
  it('mails the new address, applies on /verify type email_change, tells the old address', async () => {
    const user = await buildUser(t.db, { password: 'change-pass-1' });
    const oldAddress = user.email;
    const newAddress = email('moved');
    const s = await signIn(t, oldAddress, 'change-pass-1');
    const res = await call(t, 'PUT', '/auth/v1/user?redirect_to=/account', {
      token: s.access_token,
      body: { email: newAddress },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ email: oldAddress, new_email: newAddress });
    expect(res.json().email_change_sent_at).toEqual(expect.any(String));
    const [mail] = await mailsTo(t.db, newAddress);
    expect(mail?.subject).toMatch(/Confirm your new e-mail address/);
    const link = verifyLinkIn(mail!.text);
    expect(new URL(link).searchParams.get('type')).toBe('email_change');
    const [warned] = await mailsTo(t.db, oldAddress);
    expect(warned?.subject).toMatch(/e-mail address was requested/);
    expect(warned?.text).toContain(newAddress);
    // Until confirmed, the old address still signs in.
    await signIn(t, oldAddress, 'change-pass-1');

    const verified = await followLink(t, link);
    expect(verified.statusCode).toBe(303);
    expect(verified.headers.location).toMatch(/^http:\/\/localhost:3000\/account#access_token=/);
    expect(verified.headers.location).toContain('type=email_change');
    await signIn(t, newAddress, 'change-pass-1');
    const old = await call(t, 'POST', '/auth/v1/token?grant_type=password', {
      body: { email: oldAddress, password: 'change-pass-1' },
    });
    expect(old.json().code).toBe('invalid_credentials');
    const told = await mailsTo(t.db, oldAddress);
    expect(told[0]?.subject).toMatch(/e-mail address was changed/);
    expect(told[0]?.text).toContain(newAddress);
    // The link works once.
    expect((await followLink(t, link)).headers.location).toContain('error_code=otp_expired');
  });

  it('refuses an address another account has, and a malformed one', async () => {
    const a = await buildUser(t.db, { password: 'pass-a-111' });
    const b = await buildUser(t.db, { password: 'pass-b-111' });
    const s = await signIn(t, a.email, 'pass-a-111');
    const taken = await call(t, 'PUT', '/auth/v1/user', {
      token: s.access_token,
      body: { email: b.email },
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().code).toBe('email_exists');
    const bad = await call(t, 'PUT', '/auth/v1/user', {
      token: s.access_token,
      body: { email: 'x@' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('validation_failed');
  });
});

describe('password change needs a reauthentication nonce on an old session', () => {
  it('asks for the nonce after 24 h, accepts the mailed code once, refuses a wrong one', async () => {
    const user = await buildUser(t.db, { password: 'old-pass-11' });
    const s = await signIn(t, user.email, 'old-pass-11');
    const sessionId = decodeJwt(s.access_token).session_id as string;
    await t.db
      .update(authSessions)
      .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(authSessions.id, sessionId));
    const put = (body: unknown) => call(t, 'PUT', '/auth/v1/user', { token: s.access_token, body });

    const bare = await put({ password: 'new-pass-11' });
    expect(bare.statusCode).toBe(400);
    expect(bare.json()).toMatchObject({
      code: 'reauthentication_needed',
      message: 'Password update requires reauthentication',
    });

    const sent = await call(t, 'GET', '/auth/v1/reauthenticate', { token: s.access_token });
    expect(sent.statusCode).toBe(200);
    const [mail] = await mailsTo(t.db, user.email);
    const code = /code[^:]*: (\d{6})/.exec(mail!.text)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const wrongCode = code === '000000' ? '000001' : '000000';
    const wrong = await put({ password: 'new-pass-11', nonce: wrongCode });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('reauthentication_not_valid');
    // A wrong guess discards the code: even the right one no longer works.
    expect((await put({ password: 'new-pass-11', nonce: code })).json().code).toBe(
      'reauthentication_not_valid',
    );
    const tooSoon = await call(t, 'GET', '/auth/v1/reauthenticate', { token: s.access_token });
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json().code).toBe('over_email_send_rate_limit');
    await t.db
      .update(users)
      .set({ reauthenticationSentAt: new Date(Date.now() - 61_000) })
      .where(eq(users.id, user.id));
    await call(t, 'GET', '/auth/v1/reauthenticate', { token: s.access_token });
    const [fresh] = await mailsTo(t.db, user.email);
    const code2 = /code[^:]*: (\d{6})/.exec(fresh!.text)![1]!;
    const ok = await put({ password: 'new-pass-11', nonce: code2 });
    expect(ok.statusCode, ok.body).toBe(200);
    await signIn(t, user.email, 'new-pass-11');
    // Used once.
    expect((await put({ password: 'third-pass-1', nonce: code2 })).json().code).toBe(
      'reauthentication_not_valid',
    );
  });

  it('needs no nonce in a fresh session or in the session of a recovery link', async () => {
    const user = await buildUser(t.db, { password: 'rec-pass-11' });
    const s = await signIn(t, user.email, 'rec-pass-11');
    const fresh = await call(t, 'PUT', '/auth/v1/user', {
      token: s.access_token,
      body: { password: 'rec-pass-22' },
    });
    expect(fresh.statusCode).toBe(200);

    await t.db.update(users).set({ recoverySentAt: null }).where(eq(users.id, user.id));
    expect(
      (await call(t, 'POST', '/auth/v1/recover', { body: { email: user.email } })).statusCode,
    ).toBe(200);
    const [mail] = await mailsTo(t.db, user.email);
    const landed = await followLink(t, verifyLinkIn(mail!.text));
    const token = new URLSearchParams(landed.headers.location!.split('#')[1]).get('access_token')!;
    expect(decodeJwt(token).amr).toEqual([{ method: 'recovery', timestamp: expect.any(Number) }]);
    await t.db
      .update(authSessions)
      .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(authSessions.id, decodeJwt(token).session_id as string));
    const reset = await call(t, 'PUT', '/auth/v1/user', {
      token,
      body: { password: 'rec-pass-33' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
  });
});

describe('rate limits from their variables (all set to 2 per 5 minutes)', () => {
  const cases: [string, 'GET' | 'POST' | 'PUT', string, unknown][] = [
    [
      'AUTH_RATE_LIMIT_TOKEN',
      'POST',
      '/auth/v1/token?grant_type=refresh_token',
      { refresh_token: 'x' },
    ],
    ['AUTH_RATE_LIMIT_SIGNUP', 'POST', '/auth/v1/signup', { email: 'bad', password: 'secret-1' }],
    ['AUTH_RATE_LIMIT_RECOVER', 'POST', '/auth/v1/recover', { email: 'bad' }],
    ['AUTH_RATE_LIMIT_VERIFY', 'GET', '/auth/v1/verify?type=signup&token=none', undefined],
    ['AUTH_RATE_LIMIT_USER_UPDATE', 'PUT', '/auth/v1/user', { data: {} }],
  ];
  it.each(cases)(
    '%s: the third request from one address gets 429',
    async (_name, method, url, body) => {
      const ip = randomIp();
      for (let i = 0; i < 2; i++) {
        expect((await call(u, method, url, { body, ip })).statusCode).not.toBe(429);
      }
      const limited = await call(u, method, url, { body, ip });
      expect(limited.statusCode).toBe(429);
      expect(limited.json().code).toBe('over_request_rate_limit');
      expect((await call(u, method, url, { body })).statusCode).not.toBe(429);
    },
  );

  it('defaults to GoTrue numbers and refuses a bad value', async () => {
    expect(t.config.authRateLimits).toEqual({
      token: 150,
      signup: 30,
      recover: 30,
      verify: 30,
      userUpdate: 30,
    });
    const { loadConfig } = await import('../config.ts');
    expect(() =>
      loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), AUTH_RATE_LIMIT_TOKEN: 'lots' }),
    ).toThrow('AUTH_RATE_LIMIT_TOKEN must be a whole number of requests per 5 minutes');
  });
});

describe('probe endpoints and disabled features', () => {
  it('GET /settings and /health answer as GoTrue', async () => {
    const settings = await call(t, 'GET', '/auth/v1/settings');
    expect(settings.statusCode).toBe(200);
    const body = settings.json();
    expect(body).toMatchObject({
      disable_signup: false,
      mailer_autoconfirm: false,
      saml_enabled: false,
    });
    expect(body.external.email).toBe(true);
    expect(Object.entries(body.external).filter(([k, v]) => v && k !== 'email')).toEqual([]);
    expect(body.external).toHaveProperty('google', false);
    const health = await call(t, 'GET', '/auth/v1/health');
    expect(health.json()).toMatchObject({ name: 'GoTrue' });
  });

  it('answers each feature we do not offer with GoTrue status and error_code', async () => {
    const user = await buildUser(t.db, { password: 'feat-pass-1' });
    const s = await signIn(t, user.email, 'feat-pass-1');
    const cases: [string, 'GET' | 'POST' | 'DELETE', string, unknown, number, string][] = [
      [
        'anonymous sign-in',
        'POST',
        '/auth/v1/signup',
        { data: {} },
        422,
        'anonymous_provider_disabled',
      ],
      [
        'magic link / OTP',
        'POST',
        '/auth/v1/otp',
        { email: 'a@b.c', create_user: true },
        422,
        'otp_disabled',
      ],
      ['phone OTP', 'POST', '/auth/v1/otp', { phone: '+15550100' }, 400, 'phone_provider_disabled'],
      ['OAuth', 'GET', '/auth/v1/authorize?provider=google', undefined, 400, 'validation_failed'],
      [
        'id_token',
        'POST',
        '/auth/v1/token?grant_type=id_token',
        { provider: 'google', id_token: 'x' },
        400,
        'provider_disabled',
      ],
      [
        'web3',
        'POST',
        '/auth/v1/token?grant_type=web3',
        { chain: 'solana' },
        422,
        'web3_provider_disabled',
      ],
      [
        'SAML / SSO',
        'POST',
        '/auth/v1/sso',
        { domain: 'example.com' },
        404,
        'saml_provider_disabled',
      ],
      [
        'identity linking',
        'GET',
        '/auth/v1/user/identities/authorize?provider=github',
        undefined,
        404,
        'manual_linking_disabled',
      ],
    ];
    for (const [name, method, url, body, status, code] of cases) {
      const res = await call(t, method, url, { body, token: s.access_token });
      expect(res.statusCode, name).toBe(status);
      expect(res.json().error_code ?? res.json().code, name).toBe(code);
    }
  });

  it('puts iss = PUBLIC_URL/auth/v1 in access tokens', async () => {
    const user = await buildUser(t.db, { password: 'iss-pass-11' });
    const s = await signIn(t, user.email, 'iss-pass-11');
    expect(decodeJwt(s.access_token).iss).toBe('http://localhost:3000/auth/v1');
    expect(decodeProtectedHeader(s.access_token).alg).toBe('HS256');
    expect((await call(t, 'GET', '/auth/v1/.well-known/jwks.json')).json()).toEqual({ keys: [] });
  });
});

describe('JWT_ALG=ES256', () => {
  it('signs with a key another service verifies through the JWKS alone', async () => {
    const user = await buildUser(u.db, { password: 'es-pass-111' });
    const s = await signIn(u, user.email, 'es-pass-111');
    const header = decodeProtectedHeader(s.access_token);
    expect(header.alg).toBe('ES256');
    const jwks = (await call(u, 'GET', '/auth/v1/.well-known/jwks.json')).json();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', kid: header.kid, alg: 'ES256' });
    expect(jwks.keys[0].d).toBeUndefined();
    const { payload } = await jwtVerify(s.access_token, createLocalJWKSet(jwks), {
      issuer: 'http://localhost:3000/auth/v1',
      audience: 'authenticated',
    });
    expect(payload.sub).toBe(user.id);
    expect((await call(u, 'GET', '/auth/v1/user', { token: s.access_token })).statusCode).toBe(200);
  });

  it('still accepts an HS256 token issued before the switch, refuses one minted after', async () => {
    const user = await buildUser(u.db, { password: 'hs-pass-111' });
    const s = await signIn(u, user.email, 'hs-pass-111');
    const sessionId = decodeJwt(s.access_token).session_id as string;
    const mint = (now: number) =>
      signAccessToken(u.config.jwtSecret, {
        userId: user.id,
        email: user.email,
        sessionId,
        amr: [],
        userMetadata: {},
        expiresIn: 3600,
        now,
      });
    const before = await mint(Math.floor(Date.now() / 1000) - 600);
    expect((await call(u, 'GET', '/auth/v1/user', { token: before.token })).statusCode).toBe(200);
    expect((await call(u, 'GET', '/api/v1/me', { token: before.token })).statusCode).toBe(200);
    const after = await mint(Math.floor(Date.now() / 1000) + 5);
    const refused = await call(u, 'GET', '/auth/v1/user', { token: after.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('bad_jwt');
  });

  it('keeps its key pair in DATA_DIR across restarts', async () => {
    const { loadConfig } = await import('../config.ts');
    const again = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: u.config.dataDir,
      JWT_SECRET: u.config.jwtSecret,
      JWT_ALG: 'ES256',
    });
    expect(again.jwtPrivateKeyPem).toBe(u.config.jwtPrivateKeyPem);
    expect(() =>
      loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), JWT_ALG: 'HS512' }),
    ).toThrow('JWT_ALG must be HS256, ES256 or RS256');
  });
});

describe('CORS_ORIGINS', () => {
  const preflight = (app: TestApp, url: string, origin: string) =>
    app.app.inject({
      method: 'OPTIONS',
      url,
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'apikey, x-client-info, x-supabase-api-version, authorization, content-type',
      },
    });

  it('answers preflights of a listed origin for /auth/v1 and /api/v1 with auth-js headers', async () => {
    for (const url of ['/auth/v1/token?grant_type=password', '/api/v1/me']) {
      const res = await preflight(u, url, ORIGIN);
      expect(res.statusCode, url).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
      const allowedHeaders = String(res.headers['access-control-allow-headers']);
      for (const h of [
        'apikey',
        'x-client-info',
        'x-supabase-api-version',
        'authorization',
        'content-type',
      ]) {
        expect(allowedHeaders).toContain(h);
      }
    }
    const real = await call(u, 'GET', '/auth/v1/settings', { headers: { origin: ORIGIN } });
    expect(real.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(String(real.headers['access-control-expose-headers'])).toContain(
      'x-supabase-api-version',
    );
  });

  it('gives any other origin, and every origin by default, no CORS headers', async () => {
    const other = await preflight(u, '/auth/v1/token', 'https://evil.example');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const byDefault = await preflight(t, '/auth/v1/token', ORIGIN);
    expect(byDefault.headers['access-control-allow-origin']).toBeUndefined();
    const real = await call(u, 'GET', '/auth/v1/settings', {
      headers: { origin: 'https://evil.example' },
    });
    expect(real.headers['access-control-allow-origin']).toBeUndefined();
    const { loadConfig } = await import('../config.ts');
    expect(() =>
      loadConfig({
        NODE_ENV: 'test',
        JWT_SECRET: 'x'.repeat(32),
        CORS_ORIGINS: 'https://a.example/path',
      }),
    ).toThrow('CORS_ORIGINS');
  });
});

describe('limits are keyed by the client address as TRUST_PROXY defines it', () => {
  let p: TestApp; // TRUST_PROXY=1: one proxy of ours in front
  beforeAll(async () => {
    p = await buildTestApp({ env: { TRUST_PROXY: '1', AUTH_RATE_LIMIT_VERIFY: '2' } });
  }, 120_000);
  afterAll(() => p?.close());

  const verify = (app: TestApp, forwardedFor: string, remoteAddress: string) =>
    app.app.inject({
      url: '/auth/v1/verify?type=signup&token=none',
      headers: { ...V, 'x-forwarded-for': forwardedFor },
      remoteAddress,
    });

  it('without TRUST_PROXY a forged X-Forwarded-For does not get a fresh bucket', async () => {
    const ip = randomIp();
    expect((await verify(u, '1.1.1.1', ip)).statusCode).toBe(303);
    expect((await verify(u, '2.2.2.2', ip)).statusCode).toBe(303);
    expect((await verify(u, '3.3.3.3', ip)).statusCode).toBe(429);
  });

  it('with TRUST_PROXY each forwarded client has its own bucket', async () => {
    const proxy = randomIp();
    const client = randomIp();
    expect((await verify(p, client, proxy)).statusCode).toBe(303);
    expect((await verify(p, client, proxy)).statusCode).toBe(303);
    expect((await verify(p, client, proxy)).statusCode).toBe(429);
    expect((await verify(p, randomIp(), proxy)).statusCode).toBe(303);
  });

  it('with TRUST_PROXY=1 an X-Forwarded-For the client wrote itself does not choose its bucket', async () => {
    // The proxy appends the address it saw to what the client sent: "forged, real".
    const proxy = randomIp();
    const client = randomIp();
    for (const n of [1, 2]) {
      expect((await verify(p, `${randomIp()}, ${client}`, proxy)).statusCode, `try ${n}`).toBe(303);
    }
    expect((await verify(p, `${randomIp()}, ${client}`, proxy)).statusCode).toBe(429);
  });
});
