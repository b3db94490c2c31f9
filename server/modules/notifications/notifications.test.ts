import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaigns, leadDisputes, leads, notifications, users } from '../../db/schema.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { callAs } from '../../test/call-as.ts';
import {
  buildAdmin,
  buildBuyer,
  buildOffer,
  buildPublisher,
  type TestUser,
} from '../../test/factories.ts';
import { mp3File, pdfFile } from '../../test/fixtures.ts';

/**
 * Notifications (issue 16, item 1): every admin hears of new work in the app and, unless they
 * turned that event off, by e-mail (read here through the dev mailbox); publishers and buyers
 * get in-app what already e-mails them; each user reads and marks only their own.
 */

let t: AdminTestContext;
/** Turned sign-up and dispute e-mails off. */
let quietAdmin: TestUser;
let quietToken: string;
let blockedAdmin: TestUser;

const V = { 'x-supabase-api-version': '2024-01-01' };

/** GET /dev/mail/messages?to=…: what the dev mailbox shows for an address. */
async function mailbox(to: string): Promise<{ subject: string; text: string }[]> {
  const res = await t.app.inject({ method: 'GET', url: '/dev/mail/messages', query: { to } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const me = (method: 'GET' | 'POST', path: string, token: string, query?: Record<string, string>) =>
  t.app.inject({
    method,
    url: `/api/v1/me/notifications${path}`,
    headers: { authorization: `Bearer ${token}` },
    ...(query ? { query } : {}),
  });

const notesOf = (userId: string) =>
  t.db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(sql`${notifications.createdAt} desc`);

async function signUpPublisher(email: string, name: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/v1/signup',
    headers: { ...V, 'content-type': 'application/json' },
    payload: {
      email,
      password: 'secret-123',
      data: {
        full_legal_name: name,
        business_legal_name: `${name} Media LLC`,
        address: '1 Main St',
        phone_number: '+1 555 0100',
        whatsapp_number: '+1 555 0101',
        ms_teams_id: 'x@teams',
      },
    },
  });
  expect(res.statusCode).toBe(200);
  const [row] = await t.db.select().from(users).where(eq(users.email, email));
  return row!;
}

beforeAll(async () => {
  t = await setupAdminTest();
  quietAdmin = await buildAdmin(t.db);
  quietToken = await t.tokenOf(quietAdmin);
  blockedAdmin = await buildAdmin(t.db, { status: 'blocked' });
  const res = await t.call('PUT', '/notification-preferences', {
    token: quietToken,
    body: { email: { publisher_signed_up: false, dispute_opened: false } },
  });
  expect(res.statusCode).toBe(200);
});
afterAll(() => t.close());

describe('e-mail preferences', () => {
  it('are all on until the admin turns one off, and keep the others when one changes', async () => {
    const fresh = await t.call('GET', '/notification-preferences');
    expect(fresh.json()).toEqual({
      email: {
        publisher_signed_up: true,
        application_submitted: true,
        dispute_opened: true,
        campaign_created: true,
        fraud_velocity: true,
      },
    });
    const quiet = await t.call('GET', '/notification-preferences', { token: quietToken });
    expect(quiet.json().email).toMatchObject({
      publisher_signed_up: false,
      dispute_opened: false,
      campaign_created: true,
    });
    const on = await t.call('PUT', '/notification-preferences', {
      token: quietToken,
      body: { email: { campaign_created: true } },
    });
    expect(on.json().email.publisher_signed_up).toBe(false);
  });

  it('answers a clear 400 to an unknown event or a value that is not true/false', async () => {
    const unknown = await t.call('PUT', '/notification-preferences', {
      body: { email: { lunch_time: true } },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe('validation_failed');
    const text = await t.call('PUT', '/notification-preferences', {
      body: { email: { campaign_created: 'yes' } },
    });
    expect(text.statusCode).toBe(400);
    expect(text.json().error.message).toContain('campaign_created must be true or false.');
    const none = await t.call('PUT', '/notification-preferences', { body: {} });
    expect(none.statusCode).toBe(400);
  });
});

describe('admins hear of new work', () => {
  it('a publisher sign-up notifies every active admin, and mails those who want it', async () => {
    const email = `signup-${randomUUID().slice(0, 8)}@example.com`;
    const pub = await signUpPublisher(email, 'Nora Newcomer');
    for (const admin of [t.admin, quietAdmin]) {
      const [note] = await notesOf(admin.id);
      expect(note).toMatchObject({
        kind: 'publisher_signed_up',
        title: 'New publisher sign-up: Nora Newcomer',
        link: `/admin/publishers/${pub.id}`,
        readAt: null,
      });
      expect(note!.body).toContain(email);
    }
    expect(await notesOf(blockedAdmin.id)).toEqual([]);
    // Nobody but the admins hears of it.
    expect(await notesOf(pub.id)).toEqual([]);

    const [mail] = await mailbox(t.admin.email);
    expect(mail?.subject).toBe('New publisher sign-up: Nora Newcomer');
    expect(mail?.text).toContain(`http://localhost:3000/admin/publishers/${pub.id}`);
    expect(mail?.text).toContain('Settings → E-mail me when');
    expect(await mailbox(quietAdmin.email)).toEqual([]);
    expect(await mailbox(blockedAdmin.email)).toEqual([]);
  });

  it('a compliance submission and a resubmission notify the admins with a link to the application', async () => {
    const pub = await buildPublisher(t.db, { name: 'Sam Submitter' });
    const token = await t.tokenOf(pub);
    const offer = await buildOffer(t.db, { title: 'Solar Leads' });
    const draft = await callAs(t.app, token, 'POST', '/api/v1/publisher/applications', {
      body: { offer_id: offer.id },
    });
    expect(draft.statusCode).toBe(201);
    const id = draft.json().id as string;
    const submit = async () => {
      const form = new FormData();
      form.append('media', new Blob([new Uint8Array(mp3File)], { type: 'audio/mpeg' }), 'a.mp3');
      form.append(
        'document',
        new Blob([new Uint8Array(pdfFile)], { type: 'application/pdf' }),
        'a.pdf',
      );
      const body = new Response(form);
      return t.app.inject({
        method: 'POST',
        url: `/api/v1/publisher/applications/${id}/compliance`,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': body.headers.get('content-type')!,
        },
        payload: Buffer.from(await body.arrayBuffer()),
      });
    };
    expect((await submit()).statusCode).toBe(201);
    const [first] = await notesOf(quietAdmin.id);
    expect(first).toMatchObject({
      kind: 'application_submitted',
      title: 'New application: Sam Submitter for Solar Leads',
      link: `/admin/applications?status=pending&offer_id=${offer.id}&q=${encodeURIComponent(pub.email)}`,
    });
    // Application e-mails are on for the quiet admin.
    expect((await mailbox(quietAdmin.email)).map((m) => m.subject)).toContain(
      'New application: Sam Submitter for Solar Leads',
    );

    const reject = await t.call('PATCH', `/applications/${id}`, {
      body: { status: 'rejected', reason: 'other', note: 'The disclosure is missing.' },
    });
    expect(reject.statusCode).toBe(200);
    const [decided] = await notesOf(pub.id);
    expect(decided).toMatchObject({
      kind: 'application_rejected',
      title: 'Your application to Solar Leads was not approved',
      link: '/dashboard/offers',
    });
    expect(decided!.body).toContain('The disclosure is missing.');

    expect((await submit()).statusCode).toBe(201);
    const [again] = await notesOf(t.admin.id);
    expect(again?.title).toBe('Application resubmitted: Sam Submitter for Solar Leads');
  });

  it('a dispute notifies the admins; the e-mail goes only to admins who kept it on', async () => {
    const pub = await buildPublisher(t.db, { name: 'Dina Disputer' });
    const offer = await buildOffer(t.db, { title: 'Auto Insurance' });
    const [lead] = await t.db
      .insert(leads)
      .values({ publisherId: pub.id, offerId: offer.id, payout: '30.00', status: 'rejected' })
      .returning();
    const form = new FormData();
    form.append('message', 'The caller   stayed 95 s.');
    const body = new Response(form);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/publisher/leads/${lead!.id}/disputes`,
      headers: {
        authorization: `Bearer ${await t.tokenOf(pub)}`,
        'content-type': body.headers.get('content-type')!,
      },
      payload: Buffer.from(await body.arrayBuffer()),
    });
    expect(res.statusCode).toBe(201);
    for (const admin of [t.admin, quietAdmin]) {
      const [note] = await notesOf(admin.id);
      expect(note).toMatchObject({
        kind: 'dispute_opened',
        title: 'New lead dispute from Dina Disputer: Auto Insurance',
        link: `/admin/leads/${lead!.id}`,
      });
      expect(note!.body).toContain('"The caller stayed 95 s."');
    }
    const subjects = async (to: string) => (await mailbox(to)).map((m) => m.subject);
    expect(await subjects(t.admin.email)).toContain(
      'New lead dispute from Dina Disputer: Auto Insurance',
    );
    expect(await subjects(quietAdmin.email)).not.toContain(
      'New lead dispute from Dina Disputer: Auto Insurance',
    );

    // The admin's decision reaches the publisher in the app as well as by mail.
    const [d] = await t.db
      .select({ id: leadDisputes.id })
      .from(leadDisputes)
      .where(eq(leadDisputes.leadId, lead!.id));
    const decline = await t.call('POST', `/disputes/${d!.id}/decline`, {
      body: { message: 'The call was under the buffer.' },
    });
    expect(decline.statusCode).toBeLessThan(300);
    const [note] = await notesOf(pub.id);
    expect(note).toMatchObject({
      kind: 'dispute_declined',
      title: 'Your lead dispute was declined: Auto Insurance',
      link: `/dashboard/leads/${lead!.id}`,
    });
  });

  it('a buyer campaign notifies the admins, in the same transaction as the campaign', async () => {
    const buyer = await buildBuyer(t.db, { name: 'Bea Buyer' });
    const token = await t.tokenOf(buyer);
    const create = (name: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/buyer/campaigns',
        headers: { authorization: `Bearer ${token}` },
        payload: { name, budget: 1500 },
      });
    const ok = await create('Spring Push');
    expect(ok.statusCode).toBe(201);
    const [note] = await notesOf(t.admin.id);
    expect(note).toMatchObject({
      kind: 'campaign_created',
      title: 'New campaign from Bea Buyer: Spring Push',
      link: '/admin/campaigns?q=Spring%20Push',
    });
    expect(note!.body).toContain('(budget $1,500.00)');

    // A notification that cannot be written takes the campaign (and every mail) with it.
    const before = {
      notes: (await notesOf(t.admin.id)).length,
      mails: (await mailbox(t.admin.email)).length,
    };
    await t.db.execute(
      sql`alter table notifications add constraint test_refuse_doomed check (title not like '%Doomed%')`,
    );
    try {
      const failed = await create('Doomed Campaign');
      expect(failed.statusCode).toBeGreaterThanOrEqual(400);
    } finally {
      await t.db.execute(sql`alter table notifications drop constraint test_refuse_doomed`);
    }
    const left = await t.db
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.buyerId, buyer.id), eq(campaigns.name, 'Doomed Campaign')));
    expect(left).toEqual([]);
    expect((await notesOf(t.admin.id)).length).toBe(before.notes);
    expect((await notesOf(quietAdmin.id)).some((n) => n.title.includes('Doomed'))).toBe(false);
    expect((await mailbox(t.admin.email)).length).toBe(before.mails);
  });
});

describe('publishers get in-app what e-mails them', () => {
  it('approval of the account', async () => {
    const pub = await buildPublisher(t.db, { status: 'pending' });
    const res = await t.call('PATCH', `/publishers/${pub.id}`, { body: { status: 'approved' } });
    expect(res.statusCode).toBe(200);
    const [note] = await notesOf(pub.id);
    expect(note).toMatchObject({
      kind: 'publisher_approved',
      title: 'Your publisher account is approved',
      link: '/dashboard/offers',
    });
  });

  it('a two-factor reset by an admin, for a buyer too', async () => {
    const buyer = await buildBuyer(t.db);
    const res = await t.call('DELETE', `/users/${buyer.id}/factors`);
    expect(res.statusCode).toBe(200);
    const [note] = await notesOf(buyer.id);
    expect(note).toMatchObject({ kind: 'mfa_reset', link: '/account/two-factor' });
    expect(note!.body).toContain(t.admin.email);
  });
});

describe('reading notifications', () => {
  let reader: TestUser;
  let readerToken: string;
  let other: TestUser;
  let otherToken: string;

  beforeAll(async () => {
    reader = await buildPublisher(t.db);
    readerToken = await t.tokenOf(reader);
    other = await buildBuyer(t.db);
    otherToken = await t.tokenOf(other);
    // 23 notifications a second apart, the newest "Note 23".
    const start = Date.now() - 60_000;
    await t.db.insert(notifications).values(
      Array.from({ length: 23 }, (_, i) => ({
        userId: reader.id,
        kind: 'publisher_approved' as const,
        title: `Note ${i + 1}`,
        body: 'Body',
        link: '/dashboard',
        createdAt: new Date(start + i * 1000),
      })),
    );
    await t.db.insert(notifications).values({
      userId: other.id,
      kind: 'mfa_reset',
      title: 'Not yours',
      body: 'Body',
    });
  });

  it('lists only my own, newest first, in keyset pages', async () => {
    const first = await me('GET', '', readerToken);
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.page_size).toBe(10);
    expect(page1.total).toBe(23);
    expect(page1.items.map((n: { title: string }) => n.title).slice(0, 3)).toEqual([
      'Note 23',
      'Note 22',
      'Note 21',
    ]);
    const seen = [...page1.items];
    let cursor = page1.next_cursor as string | null;
    while (cursor) {
      const next = (await me('GET', '', readerToken, { after: cursor })).json();
      seen.push(...next.items);
      cursor = next.next_cursor;
    }
    expect(seen.map((n) => n.title)).toEqual(
      Array.from({ length: 23 }, (_, i) => `Note ${23 - i}`),
    );
    expect(seen.some((n) => n.title === 'Not yours')).toBe(false);
    const bad = await me('GET', '', readerToken, { after: 'garbage' });
    expect(bad.statusCode).toBe(400);
    const huge = await me('GET', '', readerToken, { page_size: '500' });
    expect(huge.statusCode).toBe(400);
  });

  it('counts unread, marks one read (only my own: another user’s is 404), then all', async () => {
    expect((await me('GET', '/unread-count', readerToken)).json()).toEqual({
      unread: 23,
      exact: true,
    });
    const [newest] = (await me('GET', '', readerToken)).json().items;
    const read = await me('POST', `/${newest.id}/read`, readerToken);
    expect(read.statusCode).toBe(200);
    expect(read.json().read_at).not.toBeNull();
    expect((await me('GET', '/unread-count', readerToken)).json().unread).toBe(22);
    // Again: still read, the first time kept.
    const again = await me('POST', `/${newest.id}/read`, readerToken);
    expect(again.json().read_at).toBe(read.json().read_at);

    // Someone else's notification: not found, and left unread.
    const theirs = await me('POST', `/${newest.id}/read`, otherToken);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error.message).toBe('Notification not found.');
    const [otherNote] = await notesOf(other.id);
    const mine = await me('POST', `/${otherNote!.id}/read`, readerToken);
    expect(mine.statusCode).toBe(404);
    expect((await notesOf(other.id))[0]!.readAt).toBeNull();
    const notUuid = await me('POST', '/not-a-uuid/read', readerToken);
    expect(notUuid.statusCode).toBe(400);

    const unreadOnly = (await me('GET', '', readerToken, { unread: 'true' })).json();
    expect(unreadOnly.total).toBe(22);
    expect(unreadOnly.items[0].title).toBe('Note 22');

    const all = await me('POST', '/read-all', readerToken);
    expect(all.json()).toEqual({ marked: 22 });
    expect((await me('GET', '/unread-count', readerToken)).json().unread).toBe(0);
    // The other user's stay unread.
    expect((await me('GET', '/unread-count', otherToken)).json().unread).toBe(1);
  });

  it('stops counting at 100: the bell shows 99+', async () => {
    const busy = await buildAdmin(t.db);
    await t.db.insert(notifications).values(
      Array.from({ length: 120 }, (_, i) => ({
        userId: busy.id,
        kind: 'campaign_created' as const,
        title: `Campaign ${i}`,
        body: 'Body',
      })),
    );
    const res = await me('GET', '/unread-count', await t.tokenOf(busy));
    // An admin's count also carries what waits for them (issue 34, counted apart).
    expect(res.json()).toMatchObject({ unread: 100, exact: false });
    expect(Object.keys(res.json().waiting)).toEqual([
      'pending_publishers',
      'pending_applications',
      'open_disputes',
    ]);
  });

  it('refuses strangers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/me/notifications' });
    expect(res.statusCode).toBe(401);
  });
});
