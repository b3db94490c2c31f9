import { and, desc, eq } from 'drizzle-orm';
import jsQR from 'jsqr';
import { createTransport } from 'nodemailer';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  authSessions,
  mfaChallenges,
  mfaFactors,
  mfaRecoveryCodes,
} from '../db/schema.ts';
import { startTestSmtpServer } from '../mail/test-smtp.ts';
import { processOutboxOnce } from '../mail/worker.ts';
import { buildTestApp, type TestApp } from '../test/build-test-app.ts';
import { expectAnswer } from '../test/expect-answer.ts';
import {
  buildAdmin,
  buildBuyer,
  buildPublisher,
  buildVerifiedFactor,
  type TestUser,
  tokenFor,
} from '../test/factories.ts';
import { mailsTo, randomIp } from '../test/gotrue.ts';
import { currentTotp, referenceTotp } from '../test/rfc6238.ts';

// Two-factor sign-in over GoTrue's /factors API (issue 17), through the real app.
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_RATE_LIMIT_TOKEN: '0' } });
});
afterAll(() => t.close());

const V = { 'x-supabase-api-version': '2024-01-01' };
const ipOf = new Map<string, string>();
/** Each user calls from an address of its own (the MFA limits are per address). */
const ipFor = (u: { id: string }) => {
  let ip = ipOf.get(u.id);
  if (!ip) {
    ip = randomIp();
    ipOf.set(u.id, ip);
  }
  return ip;
};

type Session = {
  access_token: string;
  refresh_token: string;
  user: { factors?: { id: string; status: string; friendly_name: string }[] };
};

async function signIn(u: TestUser): Promise<Session> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/v1/token?grant_type=password',
    headers: V,
    payload: { email: u.email, password: u.password },
    remoteAddress: ipFor(u),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

function call(
  u: { id: string },
  token: string,
  method: 'GET' | 'POST' | 'DELETE' | 'PUT',
  url: string,
  payload?: unknown,
  remoteAddress?: string,
) {
  return t.app.inject({
    method,
    url,
    headers: { ...V, authorization: `Bearer ${token}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
    remoteAddress: remoteAddress ?? ipFor(u),
  });
}

/** Enrols a TOTP factor (`friendly_name`, `issuer` as given): the answer. */
const enrolTotp = (
  u: { id: string },
  token: string,
  fields: { friendly_name?: string; issuer?: string } = {},
) => call(u, token, 'POST', '/auth/v1/factors', { factor_type: 'totp', ...fields });

const claims = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as {
    aal: string;
    amr: { method: string; timestamp: number }[];
    session_id: string;
  };

/** Enrols, challenges and verifies a factor; returns the aal2 session and the secret. */
async function enrolAndVerify(u: TestUser, name = 'Phone') {
  const s = await signIn(u);
  const enrol = await enrolTotp(u, s.access_token, { friendly_name: name });
  expect(enrol.statusCode, enrol.body).toBe(200);
  const factor = enrol.json();
  const ch = await call(u, s.access_token, 'POST', `/auth/v1/factors/${factor.id}/challenge`, {});
  // The moment of the code: a later step of the test may fall into the next 30-second window.
  const usedAt = Date.now() / 1000;
  const verify = await call(u, s.access_token, 'POST', `/auth/v1/factors/${factor.id}/verify`, {
    challenge_id: ch.json().id,
    code: referenceTotp(factor.totp.secret, usedAt),
  });
  expect(verify.statusCode, verify.body).toBe(200);
  return {
    factorId: factor.id as string,
    secret: factor.totp.secret as string,
    aal1: s,
    aal2: verify.json() as Session,
    usedAt,
  };
}

/** A new publisher, signed in, with an unverified TOTP factor. */
async function publisherWithFactor() {
  const pub = await buildPublisher(t.db);
  const s = await signIn(pub);
  const factor = (await enrolTotp(pub, s.access_token)).json();
  return { pub, s, factor };
}

/** A new challenge of the factor (its body). */
const challenge = async (u: { id: string }, s: Session, factorId: string) =>
  (await call(u, s.access_token, 'POST', `/auth/v1/factors/${factorId}/challenge`, {})).json();

const refreshWith = (refresh_token: string) =>
  t.app.inject({
    method: 'POST',
    url: '/auth/v1/token?grant_type=refresh_token',
    headers: V,
    payload: { refresh_token },
  });

/** Brings the factor's last used step back so the next test may use the current code again. */
async function forgetUsedCode(factorId: string) {
  await t.db.update(mfaFactors).set({ lastUsedStep: null }).where(eq(mfaFactors.id, factorId));
}

describe('the reference TOTP of the tests', () => {
  it('gives RFC 6238 appendix B codes (SHA-1)', () => {
    const key = Buffer.from('12345678901234567890');
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [time, code] of vectors) expect(referenceTotp(key, time, { digits: 8 })).toBe(code);
  });
});

describe('POST /auth/v1/factors (enrol)', () => {
  it('answers an unverified TOTP factor with its secret, otpauth URI and a QR code of that URI', async () => {
    const admin = await buildAdmin(t.db);
    const s = await signIn(admin);
    const res = await enrolTotp(admin, s.access_token, { friendly_name: 'Work phone' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ type: 'totp', friendly_name: 'Work phone' });
    expect(body.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(body.totp.uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(
      body.totp.uri.startsWith(
        `otpauth://totp/localhost%3A3000:${encodeURIComponent(admin.email)}?`,
      ),
    ).toBe(true);
    expect(uri.searchParams.get('secret')).toBe(body.totp.secret);
    expect(uri.searchParams.get('issuer')).toBe('localhost:3000');
    // The SVG, drawn and read back by a QR reader, is the URI.
    expect(body.totp.qr_code).toMatch(/^<svg[\s\S]*<\/svg>$/);
    const { data, info } = await sharp(Buffer.from(body.totp.qr_code), { density: 300 })
      .resize(600)
      .flatten({ background: '#ffffff' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const read = jsQR(new Uint8ClampedArray(data), info.width, info.height);
    expect(read?.data).toBe(body.totp.uri);

    const user = await call(admin, s.access_token, 'GET', '/auth/v1/user');
    expect(user.json().factors).toEqual([
      expect.objectContaining({ id: body.id, status: 'unverified', factor_type: 'totp' }),
    ]);
  });

  it('takes the issuer given, and refuses other factor types, a taken name, no token', async () => {
    const pub = await buildPublisher(t.db);
    const s = await signIn(pub);
    const named = await enrolTotp(pub, s.access_token, {
      friendly_name: 'A',
      issuer: 'Acme Network',
    });
    expect(new URL(named.json().totp.uri).searchParams.get('issuer')).toBe('Acme Network');
    const again = await enrolTotp(pub, s.access_token, { friendly_name: 'A' });
    expectAnswer(again, 422, {
      code: 'mfa_factor_name_conflict',
      message: 'A factor with the friendly name "A" for this user already exists',
    });
    const phone = await call(pub, s.access_token, 'POST', '/auth/v1/factors', {
      factor_type: 'phone',
      phone: '+15551234567',
    });
    expect([phone.statusCode, phone.json().code]).toEqual([422, 'mfa_phone_enroll_not_enabled']);
    const none = await call(pub, s.access_token, 'POST', '/auth/v1/factors', {});
    expect([none.statusCode, none.json().code]).toEqual([400, 'validation_failed']);
    const anon = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/factors',
      headers: V,
      payload: { factor_type: 'totp' },
    });
    expect([anon.statusCode, anon.json().code]).toEqual([401, 'no_authorization']);
  });

  it('allows at most 10 factors per user', async () => {
    const buyer = await buildBuyer(t.db);
    const s = await signIn(buyer);
    for (let i = 0; i < 10; i++) {
      const res = await enrolTotp(buyer, s.access_token, { friendly_name: `App ${i}` });
      expect(res.statusCode, res.body).toBe(200);
    }
    const eleventh = await enrolTotp(buyer, s.access_token, { friendly_name: 'App 10' });
    expect(eleventh.statusCode).toBe(422);
    expect(eleventh.json().code).toBe('too_many_enrolled_mfa_factors');
  });

  it('needs aal2 to add a factor once one is verified', async () => {
    const admin = await buildAdmin(t.db);
    const { aal2 } = await enrolAndVerify(admin);
    const aal1 = await signIn(admin);
    const refused = await enrolTotp(admin, aal1.access_token, { friendly_name: 'Second' });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'insufficient_aal']);
    const ok = await enrolTotp(admin, aal2.access_token, { friendly_name: 'Second' });
    expect(ok.statusCode).toBe(200);
  });
});

describe('challenge and verify', () => {
  it('verifies a code from the authenticator: aal2 session with GoTrue’s claims, factor verified', async () => {
    const admin = await buildAdmin(t.db);
    const s = await signIn(admin);
    expect(claims(s.access_token)).toMatchObject({ aal: 'aal1', amr: [{ method: 'password' }] });
    const factor = (await enrolTotp(admin, s.access_token)).json();
    const ch = await call(
      admin,
      s.access_token,
      'POST',
      `/auth/v1/factors/${factor.id}/challenge`,
      {},
    );
    expect(ch.statusCode, ch.body).toBe(200);
    const challenge = ch.json();
    expect(challenge.type).toBe('totp');
    expect(challenge.expires_at - Date.now() / 1000).toBeGreaterThan(290);
    expect(challenge.expires_at - Date.now() / 1000).toBeLessThanOrEqual(300);

    const res = await call(admin, s.access_token, 'POST', `/auth/v1/factors/${factor.id}/verify`, {
      challenge_id: challenge.id,
      code: currentTotp(factor.totp.secret),
    });
    expect(res.statusCode, res.body).toBe(200);
    const session = res.json();
    expect(session).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    const c = claims(session.access_token);
    expect(c.aal).toBe('aal2');
    expect(c.amr.map((a) => a.method)).toEqual(['totp', 'password']);
    expect(c.amr[0]!.timestamp).toBeGreaterThanOrEqual(c.amr[1]!.timestamp);
    expect(c.session_id).toBe(claims(s.access_token).session_id);
    expect(session.user.factors).toEqual([
      expect.objectContaining({ id: factor.id, status: 'verified' }),
    ]);
    // The sign-in's aal1 refresh token cannot mint aal2 tokens: it is gone.
    const oldRefresh = await refreshWith(s.refresh_token);
    expect([oldRefresh.statusCode, oldRefresh.json().code]).toEqual([
      400,
      'refresh_token_not_found',
    ]);
    // The new one keeps aal2 and the methods.
    const refreshed = await refreshWith(session.refresh_token);
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(claims(refreshed.json().access_token)).toMatchObject({ aal: 'aal2' });
    expect(claims(refreshed.json().access_token).amr.map((a) => a.method)).toEqual([
      'totp',
      'password',
    ]);
    expect(refreshed.json().user.factors).toHaveLength(1);
  });

  it('answers GoTrue’s codes for a wrong code, an empty one, an unknown challenge or factor', async () => {
    const { pub, s, factor } = await publisherWithFactor();
    const ch = await challenge(pub, s, factor.id);
    const right = currentTotp(factor.totp.secret);
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, '0');
    const verify = (body: unknown) =>
      call(pub, s.access_token, 'POST', `/auth/v1/factors/${factor.id}/verify`, body);

    const bad = await verify({ challenge_id: ch.id, code: wrong });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({
      code: 'mfa_verification_failed',
      message: 'Invalid TOTP code entered',
    });
    const empty = await verify({ challenge_id: ch.id, code: '' });
    expect([empty.statusCode, empty.json().message]).toEqual([400, 'Code needs to be non-empty']);
    const unknown = await verify({ challenge_id: crypto.randomUUID(), code: right });
    expect([unknown.statusCode, unknown.json().code]).toEqual([422, 'mfa_factor_not_found']);
    const noFactor = await call(
      pub,
      s.access_token,
      'POST',
      `/auth/v1/factors/${crypto.randomUUID()}/challenge`,
      {},
    );
    expect(noFactor.statusCode).toBe(404);
    expect(noFactor.json()).toMatchObject({
      code: 'mfa_factor_not_found',
      message: 'Factor not found',
    });

    // Another user's factor is not found either.
    const other = await buildPublisher(t.db);
    const os = await signIn(other);
    const theirs = await call(
      other,
      os.access_token,
      'POST',
      `/auth/v1/factors/${factor.id}/challenge`,
      {},
    );
    expect([theirs.statusCode, theirs.json().code]).toEqual([404, 'mfa_factor_not_found']);
  });

  it('refuses a challenge from another address, a used one and an expired one', async () => {
    const { pub, s, factor } = await publisherWithFactor();
    const challengeId = async () => (await challenge(pub, s, factor.id)).id as string;

    const elsewhere = await call(
      pub,
      s.access_token,
      'POST',
      `/auth/v1/factors/${factor.id}/verify`,
      { challenge_id: await challengeId(), code: currentTotp(factor.totp.secret) },
      '192.0.2.77',
    );
    expect([elsewhere.statusCode, elsewhere.json().code]).toEqual([422, 'mfa_ip_address_mismatch']);

    const old = await challengeId();
    await t.db
      .update(mfaChallenges)
      .set({ createdAt: new Date(Date.now() - 301_000) })
      .where(eq(mfaChallenges.id, old));
    const expired = await call(
      pub,
      s.access_token,
      'POST',
      `/auth/v1/factors/${factor.id}/verify`,
      {
        challenge_id: old,
        code: currentTotp(factor.totp.secret),
      },
    );
    expect([expired.statusCode, expired.json().code]).toEqual([422, 'mfa_challenge_expired']);

    const used = await challengeId();
    const first = await call(pub, s.access_token, 'POST', `/auth/v1/factors/${factor.id}/verify`, {
      challenge_id: used,
      code: currentTotp(factor.totp.secret),
    });
    expect(first.statusCode).toBe(200);
    await forgetUsedCode(factor.id);
    const token = first.json().access_token;
    const twice = await call(pub, token, 'POST', `/auth/v1/factors/${factor.id}/verify`, {
      challenge_id: used,
      code: currentTotp(factor.totp.secret),
    });
    expect([twice.statusCode, twice.json().code]).toEqual([422, 'mfa_challenge_expired']);
  });

  it('refuses a code that was already used, within its window, even on a fresh challenge', async () => {
    const admin = await buildAdmin(t.db);
    const { factorId, secret, usedAt } = await enrolAndVerify(admin);
    const s = await signIn(admin);
    const ch = (
      await call(admin, s.access_token, 'POST', `/auth/v1/factors/${factorId}/challenge`, {})
    ).json();
    const replay = await call(
      admin,
      s.access_token,
      'POST',
      `/auth/v1/factors/${factorId}/verify`,
      {
        challenge_id: ch.id,
        code: referenceTotp(secret, usedAt),
      },
    );
    expect(replay.statusCode).toBe(422);
    expect(replay.json()).toMatchObject({
      code: 'mfa_verification_failed',
      message: 'This code has already been used. Wait for the next code in your authenticator app.',
    });
    // The previous window's code is older still: refused as well.
    const older = await call(admin, s.access_token, 'POST', `/auth/v1/factors/${factorId}/verify`, {
      challenge_id: ch.id,
      code: referenceTotp(secret, usedAt - 30),
    });
    expect(older.statusCode).toBe(422);
    // The next window's code (clock drift of one step) is new: accepted.
    const next = await call(admin, s.access_token, 'POST', `/auth/v1/factors/${factorId}/verify`, {
      challenge_id: ch.id,
      code: referenceTotp(secret, usedAt + 30),
    });
    expect(next.statusCode, next.body).toBe(200);
    const failures = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, admin.id), eq(auditLog.action, 'mfa.verify_failed')));
    expect(failures.map((f) => (f.after as { reason: string }).reason)).toContain('code_reused');
  });

  it('limits verification attempts per factor (429 with Retry-After)', async () => {
    const { pub, s, factor } = await publisherWithFactor();
    const ch = await challenge(pub, s, factor.id);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 6; i++) {
      last = await call(pub, s.access_token, 'POST', `/auth/v1/factors/${factor.id}/verify`, {
        challenge_id: ch.id,
        code: '000000',
      });
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, 5).every((x) => x === 422)).toBe(true);
    expect(statuses[5]).toBe(429);
    expect(last!.json().code).toBe('over_request_rate_limit');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('ends the user’s other aal1 sessions and drops unverified factors, as GoTrue does', async () => {
    const admin = await buildAdmin(t.db);
    const other = await signIn(admin);
    await enrolAndVerify(admin);
    const me = await call(admin, other.access_token, 'GET', '/auth/v1/user');
    expect([me.statusCode, me.json().code]).toEqual([403, 'session_not_found']);
  });
});

describe('DELETE /auth/v1/factors/:id (unenrol)', () => {
  it('needs aal2 for a verified factor; afterwards the session is aal1 again', async () => {
    const admin = await buildAdmin(t.db);
    const { factorId, aal2 } = await enrolAndVerify(admin);
    const aal1 = await signIn(admin);
    const refused = await call(admin, aal1.access_token, 'DELETE', `/auth/v1/factors/${factorId}`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'insufficient_aal',
      message: 'AAL2 required to unenroll verified factor',
    });
    const ok = await call(admin, aal2.access_token, 'DELETE', `/auth/v1/factors/${factorId}`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ id: factorId });
    const refreshed = await refreshWith(aal2.refresh_token);
    const c = claims(refreshed.json().access_token);
    expect(c.aal).toBe('aal1');
    expect(c.amr.map((a) => a.method)).toEqual(['password']);
    expect(refreshed.json().user.factors).toBeUndefined();
    // With no factor left, the aal1 sign-in reaches the admin API again.
    const stats = await call(admin, aal1.access_token, 'GET', '/api/v1/admin/stats');
    expect(stats.statusCode).toBe(200);
  });

  it('removes an unverified factor from an aal1 session', async () => {
    const { pub, s, factor: f } = await publisherWithFactor();
    const res = await call(pub, s.access_token, 'DELETE', `/auth/v1/factors/${f.id}`);
    expect([res.statusCode, res.json()]).toEqual([200, { id: f.id }]);
  });
});

describe('aal enforcement (MFA_REQUIRED_FOR, default admin)', () => {
  it('an admin with a verified factor gets 403 insufficient_aal at aal1, answers at aal2', async () => {
    const admin = await buildAdmin(t.db);
    const { aal1, aal2 } = await enrolAndVerify(admin);
    const fresh = await signIn(admin);
    for (const url of ['/api/v1/admin/stats', '/api/v1/admin/publishers', '/api/v1/me']) {
      const res = await call(admin, fresh.access_token, 'GET', url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error).toEqual({
        code: 'insufficient_aal',
        message: 'Enter the 6-digit code from your authenticator app to continue.',
      });
      expect((await call(admin, aal2.access_token, 'GET', url)).statusCode, url).toBe(200);
    }
    // /auth/v1/user answers at aal1: auth-js needs it to list the factors.
    expect((await call(admin, fresh.access_token, 'GET', '/auth/v1/user')).statusCode).toBe(200);
    expect(aal1).toBeDefined();
  });

  it('an admin without a factor is not held back (the suite’s admins, existing accounts)', async () => {
    const admin = await buildAdmin(t.db);
    const s = await signIn(admin);
    expect((await call(admin, s.access_token, 'GET', '/api/v1/admin/stats')).statusCode).toBe(200);
  });

  it('publishers and buyers may enrol by choice; not enforced for them by default', async () => {
    const pub = await buildPublisher(t.db);
    await buildVerifiedFactor(t.db, pub.id);
    const token = await tokenFor(t.db, t.config.jwtSecret, pub);
    expect((await call(pub, token, 'GET', '/api/v1/publisher/overview')).statusCode).toBe(200);
  });

  it('MFA_REQUIRED_FOR=admin,publisher,buyer holds every role with a factor at aal1', async () => {
    const strict = await buildTestApp({ env: { MFA_REQUIRED_FOR: 'admin,publisher,buyer' } });
    try {
      for (const [build, url] of [
        [buildPublisher, '/api/v1/publisher/overview'],
        [buildBuyer, '/api/v1/buyer/campaigns'],
        [buildAdmin, '/api/v1/admin/stats'],
      ] as const) {
        const u = await build(strict.db);
        const plain = await tokenFor(strict.db, strict.config.jwtSecret, u);
        expect(
          (await strict.app.inject({ url, headers: { authorization: `Bearer ${plain}` } }))
            .statusCode,
          url,
        ).toBe(200);
        await buildVerifiedFactor(strict.db, u.id);
        const aal1 = await strict.app.inject({
          url,
          headers: { authorization: `Bearer ${plain}` },
        });
        expect([aal1.statusCode, aal1.json().error.code], url).toEqual([403, 'insufficient_aal']);
        const aal2 = await tokenFor(strict.db, strict.config.jwtSecret, u, { aal: 'aal2' });
        expect(
          (await strict.app.inject({ url, headers: { authorization: `Bearer ${aal2}` } }))
            .statusCode,
          url,
        ).toBe(200);
      }
    } finally {
      await strict.close();
    }
  }, 180_000);

  it('a password or e-mail change of an MFA user needs aal2 (401 insufficient_aal)', async () => {
    const pub = await buildPublisher(t.db);
    await buildVerifiedFactor(t.db, pub.id);
    const s = await signIn(pub);
    const res = await call(pub, s.access_token, 'PUT', '/auth/v1/user', {
      password: 'another-pass-1',
    });
    expect([res.statusCode, res.json().code]).toEqual([401, 'insufficient_aal']);
  });
});

describe('audit and recovery', () => {
  it('writes every MFA action into the audit log', async () => {
    const admin = await buildAdmin(t.db);
    const { factorId, aal2 } = await enrolAndVerify(admin);
    await call(admin, aal2.access_token, 'DELETE', `/auth/v1/factors/${factorId}`);
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, admin.id))
      .orderBy(auditLog.id);
    expect(rows.map((r) => r.action)).toEqual([
      'mfa.enroll',
      'mfa.challenge',
      'mfa.verify',
      'mfa.unenroll',
    ]);
    expect(rows.every((r) => r.actorEmail === admin.email && r.entityType === 'admin')).toBe(true);
    expect(rows[2]!.after).toMatchObject({ factor_id: factorId, factor_now_verified: true });
  });

  it('every MFA action, refused codes and the reset included, is in the audit log with its reason', async () => {
    const pub = await buildPublisher(t.db);
    const { factorId, secret, aal2, usedAt } = await enrolAndVerify(pub);
    // A wrong code, then the code that was just used (a replay).
    const ch1 = await call(
      pub,
      aal2.access_token,
      'POST',
      `/auth/v1/factors/${factorId}/challenge`,
    );
    const wrong = referenceTotp(secret, usedAt) === '000000' ? '111111' : '000000';
    const bad = await call(pub, aal2.access_token, 'POST', `/auth/v1/factors/${factorId}/verify`, {
      challenge_id: ch1.json().id,
      code: wrong,
    });
    expect(bad.json().code).toBe('mfa_verification_failed');
    const ch2 = await call(
      pub,
      aal2.access_token,
      'POST',
      `/auth/v1/factors/${factorId}/challenge`,
    );
    const replay = await call(
      pub,
      aal2.access_token,
      'POST',
      `/auth/v1/factors/${factorId}/verify`,
      {
        challenge_id: ch2.json().id,
        code: referenceTotp(secret, usedAt),
      },
    );
    expect(replay.json().code).toBe('mfa_verification_failed');
    // A second app, removed again; then an admin resets what is left.
    const second = await enrolTotp(pub, aal2.access_token, { friendly_name: 'Tablet' });
    await call(pub, aal2.access_token, 'DELETE', `/auth/v1/factors/${second.json().id}`);
    const admin = await buildAdmin(t.db);
    const adminToken = await tokenFor(t.db, t.config.jwtSecret, admin);
    const detail = await call(admin, adminToken, 'GET', `/api/v1/admin/publishers/${pub.id}`);
    expect(detail.json().two_factor_apps).toBe(1);
    const reset = await call(admin, adminToken, 'DELETE', `/api/v1/admin/users/${pub.id}/factors`);
    expect(reset.json()).toEqual({ removed: 1 });

    const rows = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, pub.id))
      .orderBy(auditLog.id);
    expect(rows.map((r) => [r.action, (r.after as { reason?: string } | null)?.reason])).toEqual([
      ['mfa.enroll', undefined],
      ['mfa.challenge', undefined],
      ['mfa.verify', undefined],
      ['mfa.challenge', undefined],
      ['mfa.verify_failed', 'invalid_code'],
      ['mfa.challenge', undefined],
      ['mfa.verify_failed', 'code_reused'],
      ['mfa.enroll', undefined],
      ['mfa.unenroll', undefined],
      ['mfa.reset', undefined],
    ]);
    expect(rows.every((r) => r.entityType === 'publisher')).toBe(true);
    expect(rows.at(-1)).toMatchObject({ actorId: admin.id, actorEmail: admin.email });
    // The admin reads them in the publisher's history, and the app count is back to 0.
    const after = await call(admin, adminToken, 'GET', `/api/v1/admin/publishers/${pub.id}`);
    expect(after.json().two_factor_apps).toBe(0);
    const history = (after.json().audit as { action: string }[]).map((e) => e.action);
    expect(history).toEqual(
      expect.arrayContaining(['mfa.reset', 'mfa.verify_failed', 'mfa.enroll']),
    );
  });

  it('the buyers list says how many authenticator apps each buyer has, for the reset button', async () => {
    const buyer = await buildBuyer(t.db);
    await buildVerifiedFactor(t.db, buyer.id);
    const admin = await buildAdmin(t.db);
    const adminToken = await tokenFor(t.db, t.config.jwtSecret, admin);
    const list = await call(
      admin,
      adminToken,
      'GET',
      `/api/v1/admin/buyers?q=${encodeURIComponent(buyer.email)}`,
    );
    expect(list.json().items).toEqual([
      expect.objectContaining({ id: buyer.id, two_factor_apps: 1 }),
    ]);
    await call(admin, adminToken, 'DELETE', `/api/v1/admin/users/${buyer.id}/factors`);
    const again = await call(
      admin,
      adminToken,
      'GET',
      `/api/v1/admin/buyers?q=${encodeURIComponent(buyer.email)}`,
    );
    expect(again.json().items[0].two_factor_apps).toBe(0);
  });

  it('an admin resets another user’s factors: audited, the user e-mailed, sessions back to aal1', async () => {
    const admin = await buildAdmin(t.db);
    const adminToken = await tokenFor(t.db, t.config.jwtSecret, admin);
    const other = await buildAdmin(t.db);
    const { aal2 } = await enrolAndVerify(other);
    const res = await call(admin, adminToken, 'DELETE', `/api/v1/admin/users/${other.id}/factors`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ removed: 1 });
    expect(await t.db.select().from(mfaFactors).where(eq(mfaFactors.userId, other.id))).toEqual([]);
    const [session] = await t.db
      .select()
      .from(authSessions)
      .where(eq(authSessions.id, claims(aal2.access_token).session_id));
    expect(session?.aal).toBe('aal1');
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, other.id), eq(auditLog.action, 'mfa.reset')));
    expect(entry).toMatchObject({ actorId: admin.id, actorEmail: admin.email });
    const [mail] = await mailsTo(t.db, other.email);
    expect(mail?.subject).toMatch(/Two-factor sign-in was reset/);
    expect(mail?.text).toContain(admin.email);

    const self = await call(admin, adminToken, 'DELETE', `/api/v1/admin/users/${admin.id}/factors`);
    expect(self.statusCode).toBe(400);
    const pub = await buildPublisher(t.db);
    const pubToken = await tokenFor(t.db, t.config.jwtSecret, pub);
    const refused = await call(pub, pubToken, 'DELETE', `/api/v1/admin/users/${other.id}/factors`);
    expect(refused.statusCode).toBe(403);
  });
});

describe('recovery codes (issue 34)', () => {
  const createCodes = (u: { id: string }, s: Session) =>
    call(u, s.access_token, 'POST', '/auth/v1/factors/recovery-codes', {});

  /** A password sign-in, then the two-factor step with `code` (an app or a recovery code). */
  async function secondStep(u: TestUser, factorId: string, code: string) {
    const s = await signIn(u);
    const ch = await challenge(u, s, factorId);
    return call(u, s.access_token, 'POST', `/auth/v1/factors/${factorId}/verify`, {
      challenge_id: ch.id,
      code,
    });
  }

  it('gives 10 codes to an aal2 session, keeps only their hashes, and audits it', async () => {
    const pub = await buildPublisher(t.db);
    const { aal2 } = await enrolAndVerify(pub);
    const res = await createCodes(pub, aal2);
    expect(res.statusCode, res.body).toBe(200);
    const { codes } = res.json() as { codes: string[] };
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
    const stored = await t.db
      .select()
      .from(mfaRecoveryCodes)
      .where(eq(mfaRecoveryCodes.userId, pub.id));
    expect(stored).toHaveLength(10);
    const hashes = stored.map((r) => r.codeHash).join(' ');
    for (const c of codes) {
      expect(hashes).not.toContain(c);
      expect(hashes).not.toContain(c.replace('-', ''));
    }
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, pub.id), eq(auditLog.action, 'mfa.recovery_codes_created')));
    expect(entry).toMatchObject({ actorId: pub.id, after: { codes: 10 } });
  });

  it('refuses an aal1 session with 403, with or without an authenticator app', async () => {
    const pub = await buildPublisher(t.db);
    await enrolAndVerify(pub);
    const withApp = await createCodes(pub, await signIn(pub));
    expectAnswer(withApp, 403, { code: 'insufficient_aal' });
    const buyer = await buildBuyer(t.db);
    expectAnswer(await createCodes(buyer, await signIn(buyer)), 403, { code: 'insufficient_aal' });
    expect(
      await t.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, pub.id)),
    ).toEqual([]);
  });

  it('a new set replaces the old one: an old code no longer signs in', async () => {
    const pub = await buildPublisher(t.db);
    const { aal2, factorId } = await enrolAndVerify(pub);
    const first = (await createCodes(pub, aal2)).json().codes as string[];
    const second = (await createCodes(pub, aal2)).json().codes as string[];
    expect(second.filter((c) => first.includes(c))).toEqual([]);
    expectAnswer(await secondStep(pub, factorId, first[0]!), 422, {
      code: 'mfa_verification_failed',
      message: 'This recovery code is not valid, or it has already been used.',
    });
    expect((await secondStep(pub, factorId, second[0]!)).statusCode).toBe(200);
  });

  it('a code signs in once instead of the app: aal2, audited, mailed through SMTP; twice is refused', async () => {
    const smtp = await startTestSmtpServer();
    try {
      const pub = await buildPublisher(t.db);
      const { aal2, factorId } = await enrolAndVerify(pub);
      const codes = (await createCodes(pub, aal2)).json().codes as string[];
      // Typed in capitals and without the dash: still the code.
      const typed = codes[3]!.toUpperCase().replace('-', ' ');
      const res = await secondStep(pub, factorId, typed);
      expect(res.statusCode, res.body).toBe(200);
      const session = res.json() as Session;
      const c = claims(session.access_token);
      expect(c.aal).toBe('aal2');
      expect(c.amr[0]?.method).toBe('recovery_code');
      // The aal2 session reaches the API.
      const me = await call(pub, session.access_token, 'GET', '/api/v1/me');
      expect(me.statusCode).toBe(200);

      const [entry] = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entityId, pub.id), eq(auditLog.action, 'mfa.recovery_code_used')));
      expect(entry).toMatchObject({
        actorId: pub.id,
        after: { factor_id: factorId, codes_left: 9 },
      });

      await processOutboxOnce({
        db: t.db,
        transport: createTransport({ url: smtp.url, ignoreTLS: true }),
        from: 'Portal <no-reply@portal.test>',
      });
      const mail = await smtp.waitFor(pub.email);
      expect(mail.subject).toMatch(/A recovery code was used to sign in/);
      expect(mail.text).toContain('9 unused codes are left');

      expectAnswer(await secondStep(pub, factorId, codes[3]!), 422, {
        code: 'mfa_verification_failed',
      });
      const [refused] = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entityId, pub.id), eq(auditLog.action, 'mfa.verify_failed')))
        .orderBy(desc(auditLog.id));
      expect(refused?.after).toMatchObject({ reason: 'invalid_recovery_code' });
    } finally {
      await smtp.close();
    }
  });

  it('does not confirm a new app, and goes with the last app', async () => {
    const pub = await buildPublisher(t.db);
    const { aal2, factorId } = await enrolAndVerify(pub);
    const codes = (await createCodes(pub, aal2)).json().codes as string[];
    const second = (await enrolTotp(pub, aal2.access_token, { friendly_name: 'Tablet' })).json();
    const ch = await challenge(pub, aal2, second.id);
    const refused = await call(
      pub,
      aal2.access_token,
      'POST',
      `/auth/v1/factors/${second.id}/verify`,
      {
        challenge_id: ch.id,
        code: codes[0],
      },
    );
    expectAnswer(refused, 422, { code: 'mfa_verification_failed' });
    const gone = await call(pub, aal2.access_token, 'DELETE', `/auth/v1/factors/${factorId}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(
      await t.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, pub.id)),
    ).toEqual([]);
  });
});
