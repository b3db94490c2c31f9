import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { authSessions, refreshTokens } from '../db/schema.ts';
import { fileListeningApp, newAuthClient } from '../test/auth-js-client.ts';
import { mailsTo, verifyLinkIn } from '../test/gotrue.ts';

// The real @supabase/auth-js client, in Node, against the app on a real port.
const t = fileListeningApp();
const newClient = () => newAuthClient(t.base);

let n = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${n++}@example.test`;

async function lastLink(to: string): Promise<string> {
  const [mail] = await mailsTo(t.db, to);
  return verifyLinkIn(mail?.text ?? '', t.base);
}

async function followLink(link: string): Promise<{ status: number; location: string }> {
  const res = await fetch(link, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location') ?? '' };
}

const me = (token: string) =>
  fetch(`${t.base}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });

const publisherData = {
  full_legal_name: 'Jo Publisher',
  business_legal_name: 'Jo Calls Ltd',
  address: '2 High St',
  phone_number: '+44 20 0000 0000',
  whatsapp_number: '+44 7000 000000',
  ms_teams_id: 'jo.teams',
};

type AuthClient = ReturnType<typeof newClient>['client'];

/** Signs a publisher up through the client (with `publisherData`): the client's answer. */
const signUpPublisher = (client: AuthClient, address: string, password: string) =>
  client.signUp({ email: address, password, options: { data: publisherData } });

/** Signs a publisher up, then in (confirmation is off for publishers): the sign-in's answer. */
async function signedUpPublisher(client: AuthClient, address: string, password: string) {
  expect((await signUpPublisher(client, address, password)).error).toBeNull();
  const signIn = await client.signInWithPassword({ email: address, password });
  expect(signIn.error).toBeNull();
  return signIn;
}

describe('@supabase/auth-js against our /auth/v1', () => {
  it('publisher: sign-up, sign-in, getUser, /me, refresh, reuse revocation, updateUser, sign-out', async () => {
    const address = email('publisher');
    const { client, events } = newClient();

    const up = await signUpPublisher(client, address, 'first-pass');
    expect(up.error).toBeNull();
    expect(up.data.session).toBeNull();
    expect(up.data.user).toMatchObject({ email: address, user_metadata: publisherData });

    const wrong = await client.signInWithPassword({ email: address, password: 'nope-nope' });
    expect(wrong.error?.code).toBe('invalid_credentials');
    expect(wrong.error?.message).toBe('Invalid login credentials');
    expect(wrong.error?.status).toBe(400);

    const signIn = await client.signInWithPassword({ email: address, password: 'first-pass' });
    expect(signIn.error).toBeNull();
    const session = signIn.data.session!;
    expect(session.access_token).toEqual(expect.any(String));
    expect(session.refresh_token).toEqual(expect.any(String));
    expect(session.token_type).toBe('bearer');
    expect(session.expires_in).toBe(3600);
    expect(session.expires_at).toBeGreaterThan(Date.now() / 1000 + 3500);
    expect(session.user.id).toBe(up.data.user!.id);
    expect(signIn.data.weakPassword).toBeUndefined();
    expect(events).toContain('SIGNED_IN');

    const got = await client.getUser();
    expect(got.error).toBeNull();
    expect(got.data.user?.email).toBe(address);

    const profile = await me(session.access_token);
    expect(profile.status).toBe(200);
    expect(await profile.json()).toMatchObject({
      email: address,
      role: 'publisher',
      status: 'pending',
      name: 'Jo Publisher',
      business_legal_name: 'Jo Calls Ltd',
      address: '2 High St',
      phone_number: '+44 20 0000 0000',
      whatsapp_number: '+44 7000 000000',
      ms_teams_id: 'jo.teams',
    });

    const refreshed = await client.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session!.refresh_token).not.toBe(session.refresh_token);
    expect(events).toContain('TOKEN_REFRESHED');
    expect((await client.getSession()).data.session?.refresh_token).toBe(
      refreshed.data.session!.refresh_token,
    );

    // A second device rotates twice; its first token, shown again after the reuse window
    // (and no longer the parent of the active one), ends that session.
    const other = newClient();
    const s2 = (await other.client.signInWithPassword({ email: address, password: 'first-pass' }))
      .data.session!;
    expect((await other.client.refreshSession()).error).toBeNull();
    expect((await other.client.refreshSession()).error).toBeNull();
    await t.db
      .update(refreshTokens)
      .set({ updatedAt: new Date(Date.now() - 11_000) })
      .where(eq(refreshTokens.revoked, true));
    const reuse = await newClient().client.refreshSession({ refresh_token: s2.refresh_token });
    expect(reuse.error?.code).toBe('refresh_token_already_used');
    expect(reuse.data.session).toBeNull();
    const dead = await other.client.getUser();
    expect(dead.error?.name).toBe('AuthSessionMissingError');
    // The first device is untouched.
    expect((await client.getUser()).error).toBeNull();

    const updated = await client.updateUser({ password: 'second-pass' });
    expect(updated.error).toBeNull();
    expect(events).toContain('USER_UPDATED');
    const same = await client.updateUser({ password: 'second-pass' });
    expect(same.error?.code).toBe('same_password');
    const weak = await client.updateUser({ password: '123' });
    expect(weak.error?.name).toBe('AuthWeakPasswordError');
    expect(weak.error?.message).toBe('Password should be at least 6 characters.');

    const current = (await client.getSession()).data.session!;
    const out = await client.signOut();
    expect(out.error).toBeNull();
    expect(events).toContain('SIGNED_OUT');
    expect((await client.getSession()).data.session).toBeNull();
    const refused = await fetch(`${t.base}/auth/v1/user`, {
      headers: { authorization: `Bearer ${current.access_token}` },
    });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error_code).toBe('session_not_found');
    expect((await me(current.access_token)).status).toBe(401);

    const again = await client.signInWithPassword({ email: address, password: 'second-pass' });
    expect(again.error).toBeNull();
  });

  it('buyer: confirmation link from the outbox, 303 with the session fragment, then sign-in', async () => {
    const address = email('buyer');
    const { client } = newClient();
    const up = await client.signUp({
      email: address,
      password: 'buyer-pass',
      options: { data: { full_name: 'Bo Buyer', company_name: 'Bo Inc', role: 'buyer' } },
    });
    expect(up.error).toBeNull();
    expect(up.data.session).toBeNull();
    expect(up.data.user?.confirmation_sent_at).toEqual(expect.any(String));

    const early = await client.signInWithPassword({ email: address, password: 'buyer-pass' });
    expect(early.error?.code).toBe('email_not_confirmed');

    const { status, location } = await followLink(await lastLink(address));
    expect(status).toBe(303);
    expect(location.startsWith(`${t.base}/#access_token=`)).toBe(true);
    const f = new URLSearchParams(location.split('#')[1]);
    expect(f.get('type')).toBe('signup');

    // The fragment's tokens are a working session for the client.
    const linked = newClient();
    const set = await linked.client.setSession({
      access_token: f.get('access_token')!,
      refresh_token: f.get('refresh_token')!,
    });
    expect(set.error).toBeNull();
    expect(set.data.user?.email).toBe(address);

    const signIn = await client.signInWithPassword({ email: address, password: 'buyer-pass' });
    expect(signIn.error).toBeNull();
    const profile = await (await me(signIn.data.session!.access_token)).json();
    expect(profile).toMatchObject({
      role: 'buyer',
      status: 'active',
      name: 'Bo Buyer',
      business_legal_name: 'Bo Inc',
    });
  });

  it('recovery: resetPasswordForEmail, mailed link to /reset-password#…type=recovery, new password works', async () => {
    const address = email('forgetful');
    const { client } = newClient();
    await client.signUp({ email: address, password: 'old-password', options: { data: {} } });

    const reset = await client.resetPasswordForEmail(address, {
      redirectTo: `${t.base}/reset-password`,
    });
    expect(reset.error).toBeNull();
    expect(reset.data).toEqual({});

    const link = await lastLink(address);
    expect(new URL(link).searchParams.get('type')).toBe('recovery');
    const { status, location } = await followLink(link);
    expect(status).toBe(303);
    expect(location).toMatch(
      new RegExp(`^${t.base.replaceAll('.', '\\.')}/reset-password#access_token=.+&type=recovery$`),
    );
    const f = new URLSearchParams(location.split('#')[1]);

    const recovering = newClient();
    const set = await recovering.client.setSession({
      access_token: f.get('access_token')!,
      refresh_token: f.get('refresh_token')!,
    });
    expect(set.error).toBeNull();
    const upd = await recovering.client.updateUser({ password: 'new-password' });
    expect(upd.error).toBeNull();

    expect(
      (await client.signInWithPassword({ email: address, password: 'old-password' })).error?.code,
    ).toBe('invalid_credentials');
    expect(
      (await client.signInWithPassword({ email: address, password: 'new-password' })).error,
    ).toBeNull();

    // The same link does not work twice.
    const second = await followLink(link);
    expect(second.location).toBe(
      `${t.base}/reset-password#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired&sb=`,
    );
  });

  it('updateUser({data}), resend and an e-mail change, read from the dev mailbox', async () => {
    const address = email('profile');
    const { client, events } = newClient();
    const signIn = await signedUpPublisher(client, address, 'meta-pass-1');

    const updated = await client.updateUser({ data: { theme: 'dark', full_legal_name: null } });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata).toMatchObject({ theme: 'dark' });
    expect(updated.data.user?.user_metadata.full_legal_name).toBeUndefined();
    expect(events).toContain('USER_UPDATED');
    // The portal's own profile columns are not touched by metadata.
    const profile = await me(signIn.data.session!.access_token);
    expect(await profile.json()).toMatchObject({ name: 'Jo Publisher', role: 'publisher' });

    const tooBig = await client.updateUser({ data: { blob: 'x'.repeat(20_000) } });
    expect(tooBig.error?.status).toBe(400);
    expect(tooBig.error?.code).toBe('validation_failed');

    // resend for an unknown and a confirmed address: no error, no hint either way.
    expect((await client.resend({ type: 'signup', email: email('nobody') })).error).toBeNull();
    expect((await client.resend({ type: 'signup', email: address })).error).toBeNull();

    const newAddress = email('moved');
    const change = await client.updateUser(
      { email: newAddress },
      { emailRedirectTo: `${t.base}/account` },
    );
    expect(change.error).toBeNull();
    expect(change.data.user?.new_email).toBe(newAddress);
    const tooSoon = await client.resend({ type: 'email_change', email: address });
    expect(tooSoon.error?.code).toBe('over_email_send_rate_limit');

    const box = await fetch(`${t.base}/dev/mail/messages?to=${encodeURIComponent(newAddress)}`);
    const mails = (await box.json()) as { subject: string; text: string }[];
    const mail = mails.find((m) => /new e-mail address/.test(m.subject));
    const link = /(http:\/\/127\.0\.0\.1:\d+\/auth\/v1\/verify\?\S+)/.exec(mail?.text ?? '')?.[1];
    expect(link).toBeDefined();
    const landed = await followLink(link!);
    expect(landed.status).toBe(303);
    expect(landed.location.startsWith(`${t.base}/account#access_token=`)).toBe(true);

    await client.signOut();
    const moved = await client.signInWithPassword({ email: newAddress, password: 'meta-pass-1' });
    expect(moved.error).toBeNull();
    expect(moved.data.user?.email).toBe(newAddress);
    const old = await fetch(`${t.base}/dev/mail/messages?to=${encodeURIComponent(address)}`);
    const oldMails = (await old.json()) as { subject: string }[];
    expect(oldMails.some((m) => /e-mail address was changed/.test(m.subject))).toBe(true);
  });

  it('reauthenticate(): an old session changes the password only with the mailed nonce', async () => {
    const address = email('reauth');
    const { client } = newClient();
    const signIn = await signedUpPublisher(client, address, 'old-pass-1');
    const sessionId = JSON.parse(
      Buffer.from(signIn.data.session!.access_token.split('.')[1]!, 'base64url').toString(),
    ).session_id as string;
    await t.db
      .update(authSessions)
      .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(authSessions.id, sessionId));

    const bare = await client.updateUser({ password: 'new-pass-1' });
    expect(bare.error?.code).toBe('reauthentication_needed');
    expect(bare.error?.status).toBe(400);
    expect((await client.reauthenticate()).error).toBeNull();
    const box = await fetch(`${t.base}/dev/mail/messages?to=${encodeURIComponent(address)}`);
    const mails = (await box.json()) as { subject: string; text: string }[];
    const code = /code[^:]*: (\d{6})/.exec(
      mails.find((m) => /confirmation code/.test(m.subject))?.text ?? '',
    )?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const ok = await client.updateUser({ password: 'new-pass-1', nonce: code! });
    expect(ok.error).toBeNull();
    await client.signOut();
    expect(
      (await client.signInWithPassword({ email: address, password: 'new-pass-1' })).error,
    ).toBeNull();
  });

  it('never lets a sign-up become admin', async () => {
    const { client } = newClient();
    const res = await client.signUp({
      email: email('sneaky'),
      password: 'secret-123',
      options: { data: { role: 'admin' } },
    });
    expect(res.error?.status).toBe(400);
    expect(res.error?.code).toBe('validation_failed');
    expect(res.data.user).toBeNull();
  });
});
