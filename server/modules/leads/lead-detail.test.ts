import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadEvents, leads } from '../../db/schema.ts';
import { type AdminTestContext, setupAdminTest, trackerGet } from '../../test/admin-test.ts';
import { callAs } from '../../test/call-as.ts';
import { buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';
import { mp3File } from '../../test/fixtures.ts';

/**
 * The lead detail (issue 13) for the admin and for the publisher who owns the lead: the
 * timeline recorded from the tracker's events, caller masking and revenue kept on the server,
 * publisher isolation, the recording, and the history of changes.
 */

let t: AdminTestContext;
let pub: TestUser;
let other: TestUser;
let pubToken: string;
let otherToken: string;
let key: string;
let offer: Awaited<ReturnType<typeof buildOffer>>;

const CALLER = '+1 (555) 123-4567';

const postback = (query: Record<string, string>) =>
  trackerGet(t.app, { key, publisher: pub.id, offer: offer.id, ...query });

const asPublisher = (path: string, token = pubToken) =>
  callAs(t.app, token, 'GET', `/api/v1/publisher${path}`);

let leadId: string;

beforeAll(async () => {
  t = await setupAdminTest();
  pub = await buildPublisher(t.db, { name: 'Pixel Pat' });
  other = await buildPublisher(t.db, { name: 'Other Olga' });
  pubToken = await t.tokenOf(pub);
  otherToken = await t.tokenOf(other);
  offer = await buildOffer(t.db, { title: 'Auto Insurance', payout: '30.00' });
  const res = await t.call('POST', '/integrations', { body: { name: 'Ringba production' } });
  key = res.json().key;

  const call = { call_id: 'CA-detail-1', caller: CALLER, tracking_number: '+18005550100' };
  expect((await postback({ ...call, event: 'incoming' })).statusCode).toBe(200);
  expect((await postback({ ...call, event: 'connected', duration: '12' })).statusCode).toBe(200);
  const done = await postback({
    ...call,
    event: 'completed',
    duration: '95',
    revenue: '61.25',
    recording_url: 'https://media.tracker.example/rec/CA-detail-1.mp3',
    state: 'TX',
    zip: '75001',
    buyer_name: 'Acme Insurance',
  });
  expect(done.statusCode).toBe(200);
  leadId = done.json().id;
  // The same event again, and a late one from before: nothing changes, nothing is recorded.
  expect((await postback({ ...call, event: 'completed', duration: '95' })).statusCode).toBe(200);
  expect((await postback({ ...call, event: 'incoming' })).statusCode).toBe(200);
});
afterAll(() => t.close());

describe('admin lead detail', () => {
  it('shows the call with its timeline of tracker events, revenue and tags', async () => {
    const res = await t.call('GET', `/leads/${leadId}`);
    expect(res.statusCode).toBe(200);
    const d = res.json();
    expect(d).toMatchObject({
      id: leadId,
      offer_title: 'Auto Insurance',
      publisher_name: 'Pixel Pat',
      publisher_email: pub.email,
      caller: '+15551234567', // as sent: +1 (555) 123-4567; kept in E.164 (issue 26)
      tracking_number: '+18005550100',
      duration_seconds: 95,
      call_duration: 2,
      payout: 30,
      revenue: 61.25,
      // The offer sets no rules: a completed call is payable.
      status: 'approved',
      state: 'TX',
      zip: '75001',
      integration_name: 'Ringba production',
      external_call_id: 'CA-detail-1',
      recording: { url: 'https://media.tracker.example/rec/CA-detail-1.mp3', stored: false },
      tags: { buyer_name: 'Acme Insurance' },
    });
    // One entry per event that moved the lead; the repeat and the late event added none.
    expect(
      d.timeline.map((e: { event: string; duration_seconds: number | null }) => [
        e.event,
        e.duration_seconds,
      ]),
    ).toEqual([
      ['incoming', null],
      ['connected', 12],
      ['completed', 95],
    ]);
  });

  it('records a change by an admin in the timeline and the history, with who made it', async () => {
    const patch = await t.call('PATCH', `/leads/${leadId}`, {
      body: { status: 'rejected', reason: 'too_short' },
    });
    expect(patch.statusCode).toBe(200);
    const d = (await t.call('GET', `/leads/${leadId}`)).json();
    expect(d.timeline.at(-1)).toMatchObject({ event: null, status: 'rejected' });
    expect(d.history[0]).toMatchObject({
      action: 'lead.status',
      by: t.admin.email,
    });
    expect(d.history[0].changes).toContainEqual({
      field: 'status',
      before: 'approved',
      after: 'rejected',
    });
  });

  it('answers 404 for a lead that does not exist and 400 for a bad id', async () => {
    const missing = await t.call('GET', `/leads/${crypto.randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('Lead not found.');
    expect((await t.call('GET', '/leads/not-a-uuid')).statusCode).toBe(400);
  });

  it('keeps an uploaded recording in storage and plays it through a signed URL', async () => {
    const res = await t.call('PUT', `/leads/${leadId}/recording`, {
      multipart: [
        { field: 'file', filename: 'call.mp3', content: mp3File, contentType: 'audio/mpeg' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const rec = res.json().recording;
    expect(rec.stored).toBe(true);
    expect(rec.url).toMatch(/^\/files\/recordings\/.+\?expires=\d+&sig=/);
    const file = await t.app.inject({ method: 'GET', url: rec.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('audio/mpeg');
    expect(file.rawPayload.equals(mp3File)).toBe(true);
    // A tampered signature is refused.
    const bad = await t.app.inject({
      method: 'GET',
      url: rec.url.replace(/sig=[^&]+/, 'sig=forged'),
    });
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('refuses a recording that is not an mp3', async () => {
    const res = await t.call('PUT', `/leads/${leadId}/recording`, {
      multipart: [
        {
          field: 'file',
          filename: 'call.mp3',
          content: Buffer.from('not audio at all'),
          contentType: 'audio/mpeg',
        },
      ],
    });
    expect(res.statusCode).toBe(415);
  });
});

describe('publisher lead detail', () => {
  it('masks the caller to the last 4 digits and never sends revenue or tags', async () => {
    const res = await asPublisher(`/leads/${leadId}`);
    expect(res.statusCode).toBe(200);
    const d = res.json();
    expect(d.caller).toBe('•••• 4567');
    expect(d).not.toHaveProperty('revenue');
    expect(d).not.toHaveProperty('tags');
    expect(d).not.toHaveProperty('publisher_email');
    // Not anywhere in the answer either (history, timeline).
    expect(res.body).not.toContain('555) 123');
    expect(res.body).not.toContain('61.25');
    expect(res.body).not.toContain('Acme');
    expect(res.body).not.toContain(t.admin.email);
    expect(d).toMatchObject({
      offer_title: 'Auto Insurance',
      duration_seconds: 95,
      status: 'rejected',
      tracking_number: '+18005550100',
      can_dispute: true,
    });
    expect(d.timeline.map((e: { event: string | null }) => e.event)).toEqual([
      'incoming',
      'connected',
      'completed',
      null,
    ]);
    // Changes by admins are shown as the network team's.
    expect(d.history[0]).toMatchObject({ action: 'lead.status', by: 'Network team' });
  });

  it("answers 404 for another publisher's lead, exactly as for a missing one", async () => {
    const theirs = await asPublisher(`/leads/${leadId}`, otherToken);
    const missing = await asPublisher(`/leads/${crypto.randomUUID()}`, otherToken);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual(missing.json());
  });

  it('masks a caller without enough digits and leaves an unknown caller empty', async () => {
    const [hand] = await t.db
      .insert(leads)
      .values({ publisherId: pub.id, offerId: offer.id, payout: '5.00', caller: 'anonymous' })
      .returning();
    const d = (await asPublisher(`/leads/${hand!.id}`)).json();
    expect(d.caller).toBe('••••');
    expect(d.timeline).toEqual([]);
    await t.db.update(leads).set({ caller: null }).where(eq(leads.id, hand!.id));
    expect((await asPublisher(`/leads/${hand!.id}`)).json().caller).toBeNull();
  });
});

describe('timeline recording', () => {
  it('writes one row per lead creation and real change, none for a repeated postback', async () => {
    const before = await t.db.select().from(leadEvents);
    const call = { call_id: 'CA-detail-2', event: 'completed', duration: '30' };
    for (let i = 0; i < 5; i++) expect((await postback(call)).statusCode).toBe(200);
    const after = await t.db.select().from(leadEvents);
    expect(after.length - before.length).toBe(1);
  });
});
