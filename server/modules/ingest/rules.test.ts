import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads, offerCapUsage, offerPayoutOverrides, settings } from '../../db/schema.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';
import { newTracker, type TestTracker, type TrackerCall } from '../../test/tracker.ts';

/**
 * The offer rules that decide whether an ingested call pays (issue 13, item 4), each at its
 * boundary, through the postback endpoint as a call tracker sends it.
 */

let t: AdminTestContext;
let pub: TestUser;
let tracker: TestTracker;
let integrationId: string;
const callId = () => tracker.callId();
const post = (call: Call) => tracker.post(call);
const leadOf = (externalCallId: string) => tracker.leadOf(externalCallId);

type Call = TrackerCall;
/** Posts one completed call and answers its lead. */
const judged = async (offerId: string, over: Call = {}) =>
  (await tracker.send(tracker.completed(pub.id, offerId, over))).lead;

const setNetworkZone = (zone: string) =>
  t.db.update(settings).set({ timezone: zone }).where(eq(settings.id, 1));

beforeAll(async () => {
  t = await setupAdminTest();
  pub = await buildPublisher(t.db, { name: 'Rules Rita' });
  tracker = await newTracker(t, 'Rules tracker');
  integrationId = tracker.integrationId;
});
afterAll(() => t.close());

describe('billable duration buffer', () => {
  it('pays 90 s and 91 s on a 90 s buffer, not 89 s, and says why', async () => {
    const offer = await buildOffer(t.db, { bufferSeconds: 90 });
    const short = await judged(offer.id, { duration: 89 });
    expect(short).toMatchObject({
      status: 'rejected',
      ruleOutcome: 'short',
      statusReason: 'Duration 89 s under the 90 s buffer',
    });
    expect(await judged(offer.id, { duration: 90 })).toMatchObject({
      status: 'approved',
      ruleOutcome: 'payable',
      statusReason: 'Payable: duration 90 s meets the 90 s buffer',
    });
    expect((await judged(offer.id, { duration: 91 })).status).toBe('approved');
    const none = await judged(offer.id, { duration: '' });
    expect(none.status).toBe('rejected');
    expect(none.statusReason).toBe('No duration reported; the offer pays calls of 90 s or more');
  });

  it('waits for a billable event, judges once, and judges again only when the duration grows past the buffer', async () => {
    const offer = await buildOffer(t.db, { bufferSeconds: 90 });
    const id = callId();
    const base = { call_id: id, publisher: pub.id, offer: offer.id };
    for (const event of ['incoming', 'connected']) {
      expect((await post({ ...base, event, duration: 30 })).json().status).toBe('pending');
    }
    expect((await leadOf(id)).judgedAt).toBeNull();
    expect((await post({ ...base, event: 'completed', duration: 41 })).json().status).toBe(
      'rejected',
    );
    expect((await leadOf(id)).statusReason).toBe('Duration 41 s under the 90 s buffer');
    // A later event still short: no change. Then the tracker's final duration passes.
    const conv = await post({ ...base, event: 'converted', duration: 60 });
    expect(conv.json().status, conv.body).toBe('rejected');
    expect((await post({ ...base, event: 'payout', duration: 95 })).json().status).toBe('approved');
    expect(await leadOf(id)).toMatchObject({
      ruleOutcome: 'payable',
      durationSeconds: 95,
      statusReason: 'Payable: duration 95 s meets the 90 s buffer',
    });
    // Judged payable: a late error or a repeated event does not undo it.
    expect((await post({ ...base, event: 'error' })).json().status).toBe('approved');
    expect((await post({ ...base, event: 'payout', duration: 95 })).json().status).toBe('approved');
  });

  it('pays every completed call of an offer without rules', async () => {
    const offer = await buildOffer(t.db);
    expect(await judged(offer.id, { duration: 1 })).toMatchObject({
      status: 'approved',
      ruleOutcome: 'payable',
      statusReason: "Payable: the call meets the offer's rules",
    });
  });
});

describe('allowed states', () => {
  it('pays callers from the listed states only; an unknown state does not pay', async () => {
    const offer = await buildOffer(t.db, { allowedStates: ['CA', 'NY'] });
    expect((await judged(offer.id, { state: 'ca' })).status).toBe('approved');
    expect((await judged(offer.id, { state: 'NY' })).status).toBe('approved');
    expect(await judged(offer.id, { state: 'TX' })).toMatchObject({
      status: 'rejected',
      ruleOutcome: 'state',
      statusReason: "Caller state TX is not among the offer's states (CA, NY)",
    });
    expect((await judged(offer.id)).statusReason).toBe(
      'Caller state unknown; the offer takes calls from CA, NY only',
    );
  });
});

describe('open hours', () => {
  const hours = (zone: string, days: number[], from: string, to: string) => ({
    hoursTimeZone: zone,
    openDays: days,
    openFrom: from,
    openTo: to,
  });

  it("judges by the offer's time zone, not the network's or UTC", async () => {
    await setNetworkZone('America/New_York');
    // Mon-Fri 09:00-17:00 in Los Angeles; Friday 2026-11-20 (PST, UTC-8).
    const offer = await buildOffer(
      t.db,
      hours('America/Los_Angeles', [1, 2, 3, 4, 5], '09:00', '17:00'),
    );
    const at = (iso: string) => judged(offer.id, { timestamp: iso });
    expect(await at('2026-11-20T16:59:00Z')).toMatchObject({
      status: 'rejected',
      ruleOutcome: 'closed',
      statusReason: "Call at 08:59 on Friday (America/Los_Angeles), outside the offer's open hours",
    });
    expect((await at('2026-11-20T17:00:00Z')).status).toBe('approved'); // 09:00 PST (12:00 in New York)
    expect((await at('2026-11-21T00:59:00Z')).status).toBe('approved'); // Fri 16:59 PST (Sat in UTC)
    expect((await at('2026-11-21T01:00:00Z')).status).toBe('rejected'); // Fri 17:00 PST
    expect((await at('2026-11-21T18:00:00Z')).status).toBe('rejected'); // Saturday 10:00
    await setNetworkZone('UTC');
  });

  it('runs a window across midnight into the next day', async () => {
    // Fri 20:00 - 02:00 in New York (EST, UTC-5): open Friday night into Saturday morning.
    const offer = await buildOffer(t.db, hours('America/New_York', [5], '20:00', '02:00'));
    const at = async (iso: string) => (await judged(offer.id, { timestamp: iso })).status;
    expect(await at('2026-11-21T00:59:00Z')).toBe('rejected'); // Fri 19:59
    expect(await at('2026-11-21T01:00:00Z')).toBe('approved'); // Fri 20:00
    expect(await at('2026-11-21T04:30:00Z')).toBe('approved'); // Fri 23:30
    expect(await at('2026-11-21T06:59:00Z')).toBe('approved'); // Sat 01:59
    expect(await at('2026-11-21T07:00:00Z')).toBe('rejected'); // Sat 02:00
    expect(await at('2026-11-20T01:30:00Z')).toBe('rejected'); // Thu 20:30: Thursday is closed
    expect(await at('2026-11-22T01:30:00Z')).toBe('rejected'); // Sat 20:30
  });

  it('follows the clock through a daylight-saving change', async () => {
    // New York leaves daylight time on Sunday 2026-11-01 at 02:00 (UTC-4 → UTC-5).
    const offer = await buildOffer(
      t.db,
      hours('America/New_York', [1, 2, 3, 4, 5, 6, 7], '09:00', '17:00'),
    );
    const at = async (iso: string) => (await judged(offer.id, { timestamp: iso })).status;
    expect(await at('2026-10-31T13:00:00Z')).toBe('approved'); // Sat 09:00 EDT
    expect(await at('2026-11-01T13:00:00Z')).toBe('rejected'); // Sun 08:00 EST
    expect(await at('2026-11-01T14:00:00Z')).toBe('approved'); // Sun 09:00 EST
    expect(await at('2026-11-01T21:59:00Z')).toBe('approved'); // Sun 16:59 EST
    expect(await at('2026-10-31T21:00:00Z')).toBe('rejected'); // Sat 17:00 EDT
  });
});

describe('duplicate window', () => {
  it('refuses the same caller within N days of a payable call, and pays from day N on', async () => {
    const offer = await buildOffer(t.db, { duplicateDays: 3 });
    const first = await judged(offer.id, {
      caller: '+1 (555) 010-2030',
      timestamp: '2026-11-10T12:00:00Z',
    });
    expect(first.status).toBe('approved');
    // Another way of writing the same number, 3 days less a second later.
    const repeat = await judged(offer.id, {
      caller: '5550102030',
      timestamp: '2026-11-13T11:59:59Z',
    });
    expect(repeat).toMatchObject({
      status: 'rejected',
      ruleOutcome: 'duplicate',
      statusReason: `Duplicate of call ${first.externalCallId} on 2026-11-10`,
    });
    // A call reported late, dated before the payable one, is a duplicate of it too.
    expect(
      (await judged(offer.id, { caller: '15550102030', timestamp: '2026-11-08T09:00:00Z' }))
        .ruleOutcome,
    ).toBe('duplicate');
    // Exactly 3 days on: a new call that pays.
    expect(
      (await judged(offer.id, { caller: '+15550102030', timestamp: '2026-11-13T12:00:00Z' }))
        .status,
    ).toBe('approved');
    // Another offer, or another caller: not a duplicate.
    const other = await buildOffer(t.db, { duplicateDays: 3 });
    expect(
      (await judged(other.id, { caller: '5550102030', timestamp: '2026-11-10T13:00:00Z' })).status,
    ).toBe('approved');
    expect(
      (await judged(offer.id, { caller: '5550102031', timestamp: '2026-11-10T13:00:00Z' })).status,
    ).toBe('approved');
  });

  it('does not count a call that did not pay', async () => {
    const offer = await buildOffer(t.db, { duplicateDays: 7, bufferSeconds: 60 });
    const dropped = await judged(offer.id, { caller: '5550109999', duration: 5 });
    expect(dropped.ruleOutcome).toBe('short');
    expect((await judged(offer.id, { caller: '5550109999', duration: 300 })).status).toBe(
      'approved',
    );
  });

  it("pays only one of a caller's calls judged at the same time", async () => {
    const offer = await buildOffer(t.db, { duplicateDays: 1 });
    const ids = Array.from({ length: 8 }, () => callId());
    const answers = await Promise.all(
      ids.map((id) =>
        post({
          call_id: id,
          publisher: pub.id,
          offer: offer.id,
          caller: '5550107777',
          duration: 200,
        }),
      ),
    );
    expect(answers.map((a) => a.json().status).sort()).toEqual([
      'approved',
      ...Array(7).fill('rejected'),
    ]);
  });
});

describe('caps', () => {
  const usage = async (offerId: string) =>
    (await t.db.select().from(offerCapUsage).where(eq(offerCapUsage.offerId, offerId))).map(
      (r) =>
        `${r.publisherId === pub.id ? 'publisher' : r.publisherId.startsWith('00000000') ? 'offer' : 'other'} ${r.period} ${r.starts} ${r.used}`,
    );

  it('pays exactly the cap of 10 out of 50 concurrent calls, never more', async () => {
    const offer = await buildOffer(t.db, { dailyCap: 10 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        post({
          call_id: callId(),
          publisher: pub.id,
          offer: offer.id,
          duration: 120,
          timestamp: '2026-11-10T15:00:00Z',
        }),
      ),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const statuses = answers.map((a) => a.json().status);
    expect(statuses.filter((s) => s === 'approved')).toHaveLength(10);
    expect(statuses.filter((s) => s === 'rejected')).toHaveLength(40);
    const rows = await t.db.select().from(leads).where(eq(leads.offerId, offer.id));
    expect(rows.filter((r) => r.status === 'approved')).toHaveLength(10);
    expect(new Set(rows.filter((r) => r.status === 'rejected').map((r) => r.statusReason))).toEqual(
      new Set(['Over the daily cap of 10']),
    );
    expect(await usage(offer.id)).toEqual(['offer day 2026-11-10 10']);
    // The next day has its own 10.
    expect((await judged(offer.id, { timestamp: '2026-11-11T15:00:00Z' })).status).toBe('approved');
  });

  it('cuts days at midnight of the network time zone', async () => {
    await setNetworkZone('America/New_York');
    const offer = await buildOffer(t.db, { dailyCap: 1 });
    const at = async (iso: string) => (await judged(offer.id, { timestamp: iso })).status;
    expect(await at('2026-11-20T03:00:00Z')).toBe('approved'); // 19th, 22:00 in New York
    expect(await at('2026-11-20T04:59:00Z')).toBe('rejected'); // 19th, 23:59: the 19th is full
    expect(await at('2026-11-20T05:00:00Z')).toBe('approved'); // 20th, 00:00
    expect(await usage(offer.id)).toEqual(['offer day 2026-11-19 1', 'offer day 2026-11-20 1']);
    await setNetworkZone('UTC');
  });

  it('keeps monthly caps, and per-publisher caps for each publisher on its own', async () => {
    const other = await buildPublisher(t.db);
    const offer = await buildOffer(t.db, { monthlyCap: 5, publisherDailyCap: 2 });
    const day = (d: number, p: TestUser = pub) =>
      judged(offer.id, {
        publisher: p.id,
        timestamp: `2026-10-${String(d).padStart(2, '0')}T12:00:00Z`,
      });
    expect((await day(1)).status).toBe('approved');
    expect((await day(1)).status).toBe('approved');
    expect(await day(1)).toMatchObject({
      status: 'rejected',
      statusReason: 'Over the daily cap of 2 per publisher',
    });
    // The refused call gave back the monthly slot it had taken: 2 used, not 3.
    expect((await day(1, other)).status).toBe('approved');
    expect((await day(2)).status).toBe('approved');
    expect((await day(3)).status).toBe('approved'); // the 5th of the month
    expect(await day(4, other)).toMatchObject({
      status: 'rejected',
      statusReason: 'Over the monthly cap of 5',
    });
    // November starts again.
    expect((await judged(offer.id, { timestamp: '2026-11-01T12:00:00Z' })).status).toBe('approved');
    const rows = await usage(offer.id);
    expect(rows).toContain('offer month 2026-10-01 5');
    expect(rows).toContain('publisher day 2026-10-01 2');
  });

  it('uses no slot for a call refused by another rule', async () => {
    const offer = await buildOffer(t.db, { dailyCap: 1, bufferSeconds: 60 });
    expect((await judged(offer.id, { duration: 10 })).ruleOutcome).toBe('short');
    expect((await judged(offer.id)).status).toBe('approved');
    expect((await judged(offer.id)).statusReason).toBe('Over the daily cap of 1');
  });
});

describe('per-publisher payout and statuses set by hand', () => {
  it("pays the publisher's own payout over the tracker's and the offer's", async () => {
    const offer = await buildOffer(t.db, { payout: '30.00' });
    const other = await buildPublisher(t.db);
    await t.db
      .insert(offerPayoutOverrides)
      .values({ offerId: offer.id, publisherId: pub.id, payout: '42.50' });
    expect((await judged(offer.id, { payout: '20' })).payout).toBe('42.50');
    expect((await judged(offer.id)).payout).toBe('42.50');
    expect((await judged(offer.id, { publisher: other.id, payout: '20' })).payout).toBe('20.00');
    expect((await judged(offer.id, { publisher: other.id })).payout).toBe('30.00');
  });

  it('never judges or changes a status set by hand', async () => {
    const offer = await buildOffer(t.db, { bufferSeconds: 90, dailyCap: 5 });
    const id = callId();
    const base = { call_id: id, publisher: pub.id, offer: offer.id };
    await post({ ...base, event: 'completed', duration: 30 });
    // An admin approves it by hand (the manual override sets status_overridden_at).
    await t.db.execute(sql`update leads set status = 'approved', status_reason = 'Checked the recording',
      status_overridden_at = now() where integration_id = ${integrationId} and external_call_id = ${id}`);
    expect((await post({ ...base, event: 'payout', duration: 200 })).json().status).toBe(
      'approved',
    );
    expect(await leadOf(id)).toMatchObject({
      statusReason: 'Checked the recording',
      ruleOutcome: 'short',
      durationSeconds: 200,
    });
    // The same with a hand-made rejection: a later billable event does not approve it.
    const id2 = callId();
    await post({ ...base, call_id: id2, event: 'incoming' });
    await t.db.execute(sql`update leads set status = 'rejected', status_overridden_at = now()
      where integration_id = ${integrationId} and external_call_id = ${id2}`);
    expect(
      (await post({ ...base, call_id: id2, event: 'completed', duration: 200 })).json().status,
    ).toBe('rejected');
    expect((await leadOf(id2)).judgedAt).toBeNull();
    expect(await capRows(offer.id)).toEqual([]);
  });
});

async function capRows(offerId: string) {
  return t.db.select().from(offerCapUsage).where(eq(offerCapUsage.offerId, offerId));
}

describe('what the publisher sees of the rules (issue 34 item 3)', () => {
  it("shows the offer's rules as the ingestion judges them, and each rejected lead's reason", async () => {
    const offer = await buildOffer(t.db, {
      title: 'Rules as judged',
      bufferSeconds: 90,
      allowedStates: ['TX', 'FL'],
      dailyCap: 40,
      publisherDailyCap: 5,
    });
    const token = await t.tokenOf(pub);
    const as = (url: string) =>
      t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    // The card's data: the very columns ingest_call reads.
    const offers = (await as('/api/v1/publisher/offers?q=Rules%20as%20judged')).json();
    expect(offers.items[0].rules).toMatchObject({
      buffer_seconds: 90,
      allowed_states: ['TX', 'FL'],
      daily_cap: 40,
      publisher_daily_cap: 5,
      open_hours: null,
    });
    // A call the buffer refuses, and one from a state the offer does not take.
    const short = await judged(offer.id, { duration: 40, state: 'TX' });
    const away = await judged(offer.id, { duration: 120, state: 'CA' });
    const list = (await as('/api/v1/publisher/leads?page_size=100')).json();
    const reasonOf = (id: string) =>
      list.items.find((l: { id: string }) => l.id === id)?.status_reason;
    expect(reasonOf(short.id)).toBe('Duration 40 s under the 90 s buffer');
    expect(reasonOf(away.id)).toBe("Caller state CA is not among the offer's states (TX, FL)");
    const detail = (await as(`/api/v1/publisher/leads/${short.id}`)).json();
    expect(detail.status_reason).toBe('Duration 40 s under the 90 s buffer');
  });
});
