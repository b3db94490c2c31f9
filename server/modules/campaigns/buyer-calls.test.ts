import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaigns, leads, settings } from '../../db/schema.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { callAs } from '../../test/call-as.ts';
import { buildBuyer, buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';
import { newTracker, type TestTracker, type TrackerCall } from '../../test/tracker.ts';

/**
 * Issue 31, items 4-5: a buyer's calls (only their own, never the publisher or payout), the CSV,
 * the dashboard, and returns (window, one per call, the admin's decision and the credit).
 */

let t: AdminTestContext;
let pub: TestUser;
let buyerToken: string;
let otherToken: string;
let tracker: TestTracker;
let campaignId: string;
let offerId: string;

const asBuyer = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  callAs(t.app, token, method, `/api/v1/buyer${url}`, { body: payload });

async function call(over: TrackerCall = {}) {
  const sent = tracker.completed(pub.id, offerId, {
    duration: 95,
    caller: '+14155550123',
    recording_url: 'https://rec.example.com/1.mp3',
    ...over,
  });
  const res = await tracker.post(sent);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as string;
}

beforeAll(async () => {
  t = await setupAdminTest();
  pub = await buildPublisher(t.db);
  const buyer = await buildBuyer(t.db);
  buyerToken = await t.tokenOf(buyer);
  otherToken = await t.tokenOf(await buildBuyer(t.db));
  tracker = await newTracker(t, 'Calls tracker');
  offerId = (await buildOffer(t.db, { payout: '7.00' })).id;
  campaignId = (
    await asBuyer(buyerToken, 'POST', '/campaigns', { name: 'Seniors', budget: 1000 })
  ).json().id;
  const ok = await t.call('POST', `/campaigns/${campaignId}/approve`, {
    body: { offer_id: offerId, price_per_call: 25, buffer_seconds: 60 },
  });
  expect(ok.statusCode, ok.body).toBe(200);
});
afterAll(() => t.close());

describe('GET /api/v1/buyer/calls', () => {
  it('lists own calls newest first, caller masked, never the publisher or payout', async () => {
    const billed = await call();
    const short = await call({ duration: 30 });
    const res = await asBuyer(buyerToken, 'GET', '/calls');
    expect(res.statusCode, res.body).toBe(200);
    const [first, second] = res.json().items;
    expect(first).toMatchObject({
      id: short,
      billable: false,
      price: null,
      bill_reason: "Duration 30 s under the campaign's 60 s billable duration",
    });
    expect(second).toMatchObject({
      id: billed,
      campaign_name: 'Seniors',
      caller: '•••• 0123',
      billable: true,
      price: 25,
      recording_url: 'https://rec.example.com/1.mp3',
      return_status: null,
    });
    expect(res.body).not.toContain(pub.id);
    expect(res.body).not.toMatch(/payout|publisher/);
    // Another buyer sees none of them.
    expect((await asBuyer(otherToken, 'GET', '/calls')).json().items).toEqual([]);
  });

  it('shows the whole number when Settings allow it, and exports CSV', async () => {
    const set = await t.call('PATCH', '/settings', { body: { buyer_sees_full_caller: true } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ buyer_sees_full_caller: true, buyer_return_days: 7 });
    const res = await asBuyer(buyerToken, 'GET', '/calls?page_size=1');
    expect(res.json().items[0].caller).toBe('+14155550123');
    expect(res.json().next_cursor).not.toBeNull();
    await t.db.update(settings).set({ buyerSeesFullCaller: false }).where(eq(settings.id, 1));
    const csv = await asBuyer(buyerToken, 'GET', '/calls.csv');
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trim().split(/\r?\n/);
    expect(lines[0]).toBe(
      'id,time,campaign,caller,state,duration_seconds,billable,reason,price,return',
    );
    expect(lines).toHaveLength(3);
  });

  it('answers the dashboard: spend against the budget, calls delivered and billable', async () => {
    const res = await asBuyer(buyerToken, 'GET', '/dashboard');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      budget: 1000,
      spent_total: 25,
      spend_month: 25,
      calls_delivered: 2,
      calls_billable: 1,
      avg_duration_seconds: Math.round((95 + 30) / 2),
    });
    // The burn-down's axis: today in the network's zone, and where the projection ends.
    expect(res.json().today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(res.json()).toHaveProperty('end_date');
  });
});

describe('returns', () => {
  it('returns a billed call once; another buyer gets 404; an unbilled call cannot be', async () => {
    const id = await call();
    expect(
      (await asBuyer(otherToken, 'POST', `/calls/${id}/return`, { reason: 'Wrong number' }))
        .statusCode,
    ).toBe(404);
    const res = await asBuyer(buyerToken, 'POST', `/calls/${id}/return`, {
      reason: 'Wrong number',
      note: 'Asked for pizza',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: 'pending', amount: 25, reason: 'Wrong number' });
    const again = await asBuyer(buyerToken, 'POST', `/calls/${id}/return`, { reason: 'Again' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('This call was already returned.');
    const short = await call({ duration: 10 });
    const refused = await asBuyer(buyerToken, 'POST', `/calls/${short}/return`, { reason: 'x' });
    expect(refused.json().error.message).toBe('Only a billed call can be returned.');
    expect(
      (await asBuyer(buyerToken, 'POST', `/calls/${id}/return`, { reason: '' })).statusCode,
    ).toBe(400);
  });

  it('refuses a call older than the window of Settings', async () => {
    const id = await call({ timestamp: new Date(Date.now() - 8 * 86_400_000).toISOString() });
    const res = await asBuyer(buyerToken, 'POST', `/calls/${id}/return`, { reason: 'Late' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('A call can be returned within 7 days of it.');
    await t.call('PATCH', '/settings', { body: { buyer_return_days: 10 } });
    const later = await asBuyer(buyerToken, 'POST', `/calls/${id}/return`, { reason: 'Late' });
    expect(later.statusCode, later.body).toBe(201);
    await t.call('PATCH', '/settings', { body: { buyer_return_days: 7 } });
  });

  it('an accepted return credits the price back and says so on the call; a decided one stays', async () => {
    const id = await call();
    const ret = (
      await asBuyer(buyerToken, 'POST', `/calls/${id}/return`, { reason: 'Robocall' })
    ).json();
    const spentBefore = (
      await t.db.select().from(campaigns).where(eq(campaigns.id, campaignId))
    )[0]!.spent;
    const list = await t.call('GET', '/returns', { query: { status: 'pending' } });
    expect(list.json().items.map((r: { id: string }) => r.id)).toContain(ret.id);
    const ok = await t.call('POST', `/returns/${ret.id}/accept`, { body: { note: 'Confirmed' } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'accepted', decision_note: 'Confirmed' });
    const after = (await t.db.select().from(campaigns).where(eq(campaigns.id, campaignId)))[0]!;
    expect(Number(spentBefore) - Number(after.spent)).toBe(25);
    const [lead] = await t.db.select().from(leads).where(eq(leads.id, id));
    expect(lead!.revenue).toBe('0.00');
    const shown = (await asBuyer(buyerToken, 'GET', '/calls'))
      .json()
      .items.find((c: { id: string }) => c.id === id);
    expect(shown.return_status).toBe('accepted');
    expect((await t.call('POST', `/returns/${ret.id}/decline`, { body: {} })).statusCode).toBe(409);
  });
});

describe('a buyer with two campaigns', () => {
  it('pages their calls newest first across both, by cursor and by number, with an exact total', async () => {
    const buyer = await buildBuyer(t.db);
    const token = await t.tokenOf(buyer);
    const offers = [await buildOffer(t.db), await buildOffer(t.db)];
    const ids: string[] = [];
    for (const [i, offer] of offers.entries()) {
      const id = (
        await asBuyer(token, 'POST', '/campaigns', { name: `Pair ${i}`, budget: 1000 })
      ).json().id;
      const ok = await t.call('POST', `/campaigns/${id}/approve`, {
        body: { offer_id: offer.id, price_per_call: 10 },
      });
      expect(ok.statusCode, ok.body).toBe(200);
      ids.push(id);
    }
    // Seven calls, their times interleaved between the two campaigns.
    const calls: { id: string; campaign: string }[] = [];
    for (let i = 0; i < 7; i++) {
      const c = i % 3 === 0 ? 1 : 0;
      const id = await call({
        offer: offers[c]!.id,
        timestamp: new Date(Date.UTC(2026, 10, 2, 10, i)).toISOString(),
      });
      calls.push({ id, campaign: ids[c]! });
    }
    const newestFirst = calls.map((c) => c.id).reverse();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/calls?page_size=3${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`;
      const res = await asBuyer(token, 'GET', url);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().total).toBe(7);
      seen.push(...res.json().items.map((x: { id: string }) => x.id));
      cursor = res.json().next_cursor;
    } while (cursor);
    expect(seen).toEqual(newestFirst);
    const third = await asBuyer(token, 'GET', '/calls?page_size=3&page=3');
    expect(third.json().items.map((x: { id: string }) => x.id)).toEqual(newestFirst.slice(6));
    const one = await asBuyer(token, 'GET', `/calls?campaign_id=${ids[1]}`);
    expect(one.json().total).toBe(3);
    expect(one.json().items.map((x: { id: string }) => x.id)).toEqual(
      calls
        .filter((c) => c.campaign === ids[1])
        .map((c) => c.id)
        .reverse(),
    );
  });
});
