import { isAuthApiError } from '@supabase/auth-js';
import { describe, expect, it } from 'vitest';
import { fileListeningApp, newAuthClient } from '../test/auth-js-client.ts';
import { buildAdmin } from '../test/factories.ts';
import { currentTotp, referenceTotp } from '../test/rfc6238.ts';

// The real @supabase/auth-js client's MFA API (enroll, challenge, verify, listFactors,
// getAuthenticatorAssuranceLevel, unenroll) against the app on a real port, with the codes
// computed by the tests' own RFC 6238 implementation (server/test/rfc6238.ts).
const t = fileListeningApp();
const newClient = () => newAuthClient(t.base);

const adminStats = (token: string) =>
  fetch(`${t.base}/api/v1/admin/stats`, { headers: { authorization: `Bearer ${token}` } });

describe('auth-js mfa API against the portal', () => {
  it('enrols, challenges and verifies; the session reaches aal2 and the admin API answers', async () => {
    const admin = await buildAdmin(t.db);
    const { client, events } = newClient();
    const signIn = await client.signInWithPassword({
      email: admin.email,
      password: admin.password,
    });
    expect(signIn.error).toBeNull();

    const before = await client.mfa.getAuthenticatorAssuranceLevel();
    expect(before.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });

    const enrolled = await client.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    expect(enrolled.error).toBeNull();
    const factor = enrolled.data!;
    expect(factor.type).toBe('totp');
    expect(factor.friendly_name).toBe('Phone');
    // auth-js turns the SVG into a data URL an <img> can show.
    expect(factor.totp.qr_code.startsWith('data:image/svg+xml;utf-8,<svg')).toBe(true);
    expect(factor.totp.uri).toContain(`secret=${factor.totp.secret}`);

    const listed = await client.mfa.listFactors();
    expect(listed.error).toBeNull();
    expect(listed.data!.all).toEqual([
      expect.objectContaining({ id: factor.id, status: 'unverified', factor_type: 'totp' }),
    ]);
    expect(listed.data!.totp).toEqual([]); // only verified factors are sorted by type

    const challenge = await client.mfa.challenge({ factorId: factor.id });
    expect(challenge.error).toBeNull();
    expect(challenge.data).toMatchObject({ type: 'totp' });

    const wrong = await client.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.data!.id,
      code: currentTotp(factor.totp.secret, 5),
    });
    expect(isAuthApiError(wrong.error)).toBe(true);
    expect(wrong.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });

    // One moment for every code of this test: a 30-second window may end between two calls.
    const usedAt = Date.now() / 1000;
    const verified = await client.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.data!.id,
      code: referenceTotp(factor.totp.secret, usedAt),
    });
    expect(verified.error).toBeNull();
    expect(events).toContain('MFA_CHALLENGE_VERIFIED');

    const after = await client.mfa.getAuthenticatorAssuranceLevel();
    expect(after.data!.currentLevel).toBe('aal2');
    expect(after.data!.nextLevel).toBe('aal2');
    expect(
      (after.data!.currentAuthenticationMethods as { method: string }[]).map((m) => m.method),
    ).toEqual(['totp', 'password']);
    const verifiedList = await client.mfa.listFactors();
    expect(verifiedList.data!.totp).toEqual([
      expect.objectContaining({ id: factor.id, status: 'verified' }),
    ]);
    const { data: session } = await client.getSession();
    expect((await adminStats(session.session!.access_token)).status).toBe(200);

    // A password-only sign-in of the same admin now stops at aal1 with aal2 to reach.
    const second = newClient().client;
    await second.signInWithPassword({ email: admin.email, password: admin.password });
    const level = await second.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    const aal1Token = (await second.getSession()).data.session!.access_token;
    expect((await adminStats(aal1Token)).status).toBe(403);
    // The replayed code is refused; the next window's code passes through challengeAndVerify.
    const replay = await second.mfa.challengeAndVerify({
      factorId: factor.id,
      code: referenceTotp(factor.totp.secret, usedAt),
    });
    expect(replay.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    const next = await second.mfa.challengeAndVerify({
      factorId: factor.id,
      code: referenceTotp(factor.totp.secret, usedAt + 30),
    });
    expect(next.error).toBeNull();
    const aal2Token = (await second.getSession()).data.session!.access_token;
    expect((await adminStats(aal2Token)).status).toBe(200);

    // Removal needs aal2 (the second client has it) and brings the level back to aal1.
    const removed = await second.mfa.unenroll({ factorId: factor.id });
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual({ id: factor.id });
    await second.refreshSession();
    const end = await second.mfa.getAuthenticatorAssuranceLevel();
    expect(end.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
  });

  it('maps the server’s refusals to AuthApiError codes', async () => {
    const admin = await buildAdmin(t.db);
    const { client } = newClient();
    await client.signInWithPassword({ email: admin.email, password: admin.password });
    const missing = await client.mfa.challenge({ factorId: crypto.randomUUID() });
    expect(missing.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    await client.mfa.enroll({ factorType: 'totp', friendlyName: 'Same' });
    const clash = await client.mfa.enroll({ factorType: 'totp', friendlyName: 'Same' });
    expect(clash.error).toMatchObject({ status: 422, code: 'mfa_factor_name_conflict' });
    const phone = await client.mfa.enroll({ factorType: 'phone', phone: '+15551234567' });
    expect(phone.error).toMatchObject({ status: 422, code: 'mfa_phone_enroll_not_enabled' });
  });

  it('takes a recovery code through challengeAndVerify unchanged (issue 34)', async () => {
    const admin = await buildAdmin(t.db);
    const first = newClient().client;
    await first.signInWithPassword({ email: admin.email, password: admin.password });
    const factor = (await first.mfa.enroll({ factorType: 'totp' })).data!;
    const on = await first.mfa.challengeAndVerify({
      factorId: factor.id,
      code: referenceTotp(factor.totp.secret, Date.now() / 1000),
    });
    expect(on.error).toBeNull();
    const { data } = await first.getSession();
    const made = await fetch(`${t.base}/auth/v1/factors/recovery-codes`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${data.session!.access_token}`,
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(made.status).toBe(200);
    const { codes } = (await made.json()) as { codes: string[] };

    // The phone is gone: another browser signs in with the password and a recovery code.
    const { client, events } = newClient();
    await client.signInWithPassword({ email: admin.email, password: admin.password });
    const verified = await client.mfa.challengeAndVerify({ factorId: factor.id, code: codes[0]! });
    expect(verified.error).toBeNull();
    expect(events).toContain('MFA_CHALLENGE_VERIFIED');
    const level = (await client.mfa.getAuthenticatorAssuranceLevel()).data!;
    expect(level.currentLevel).toBe('aal2');
    expect((level.currentAuthenticationMethods as { method: string }[])[0]?.method).toBe(
      'recovery_code',
    );
    const again = newClient().client;
    await again.signInWithPassword({ email: admin.email, password: admin.password });
    const refused = await again.mfa.challengeAndVerify({ factorId: factor.id, code: codes[0]! });
    expect(refused.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
  });
});
