import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyerBilling, callReturns, campaigns, leads } from '../../db/schema.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { callAs } from '../../test/call-as.ts';
import { buildBuyer, buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';
import { newTracker, type TestTracker } from '../../test/tracker.ts';
import { runMonthlyInvoices } from './invoices.service.ts';

/**
 * Issue 31, item 6: a prepaid buyer's balance (deposits, credits, billed spend), the pause at
 * zero, 50 concurrent calls at the boundary, and postpaid invoices whose total is the sum of
 * their lines, each buyer seeing only their own.
 */

let t: AdminTestContext;
let pub: TestUser;
let tracker: TestTracker;
let seq = 0;

beforeAll(async () => {
  t = await setupAdminTest();
  pub = await buildPublisher(t.db);
  tracker = await newTracker(t, 'Billing tracker');
});
afterAll(() => t.close());

type Buyer = { user: TestUser; token: string };
async function newBuyer(): Promise<Buyer> {
  const user = await buildBuyer(t.db);
  return { user, token: await t.tokenOf(user) };
}

const asBuyer = (b: Buyer, method: 'GET' | 'POST', url: string, payload?: object) =>
  callAs(t.app, b.token, method, `/api/v1/buyer${url}`, { body: payload });

/** An approved campaign of `b` on a new offer at `price` per call; its id and offer. */
async function campaignOf(b: Buyer, price = 10) {
  const offer = await buildOffer(t.db);
  const res = await asBuyer(b, 'POST', '/campaigns', { name: `Billing ${seq++}` });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as string;
  const ok = await t.call('POST', `/campaigns/${id}/approve`, {
    body: { offer_id: offer.id, price_per_call: price },
  });
  expect(ok.statusCode, ok.body).toBe(200);
  return { id, offerId: offer.id };
}

const post = (offerId: string, timestamp?: string) =>
  tracker.post(tracker.completed(pub.id, offerId, timestamp ? { timestamp } : {}));

const campaignRow = async (id: string) =>
  (await t.db.select().from(campaigns).where(eq(campaigns.id, id)))[0]!;
const billedOf = async (offerId: string) =>
  (await t.db.select().from(leads).where(eq(leads.offerId, offerId))).filter(
    (l) => l.billOutcome === 'billed',
  );

describe('prepaid', () => {
  it('pauses at once when set prepaid with nothing, resumes at a deposit, draws each call and pauses at zero', async () => {
    const b = await newBuyer();
    const c = await campaignOf(b);
    const mode = await t.call('PUT', `/buyers/${b.user.id}/billing`, { body: { mode: 'prepaid' } });
    expect(mode.statusCode, mode.body).toBe(200);
    expect(await campaignRow(c.id)).toMatchObject({ status: 'paused', pausedBy: 'balance' });

    const dep = await t.call('POST', `/buyers/${b.user.id}/deposits`, {
      body: { amount: 25, note: 'Wire 1' },
    });
    expect(dep.statusCode, dep.body).toBe(201);
    expect(dep.json()).toMatchObject({ mode: 'prepaid', balance: 25 });
    expect((await campaignRow(c.id)).status).toBe('active');

    for (let i = 0; i < 3; i++) expect((await post(c.offerId)).statusCode).toBe(200);
    // 25 pays two calls at 10; 5 cannot pay the next: the campaign paused after the second.
    expect(await billedOf(c.offerId)).toHaveLength(2);
    expect(await campaignRow(c.id)).toMatchObject({ status: 'paused', pausedBy: 'balance' });
    const billing = await asBuyer(b, 'GET', '/billing');
    expect(billing.statusCode, billing.body).toBe(200);
    expect(billing.json()).toMatchObject({ mode: 'prepaid', balance: 5 });
    expect(billing.json().deposits).toMatchObject([{ amount: 25, note: 'Wire 1' }]);
    // The buyer cannot resume it; a deposit does.
    expect((await asBuyer(b, 'POST', `/campaigns/${c.id}/resume`)).statusCode).toBe(409);

    // An accepted return credits the balance back.
    const [lead] = await billedOf(c.offerId);
    const ret = await asBuyer(b, 'POST', `/calls/${lead!.id}/return`, { reason: 'Wrong number' });
    expect(ret.statusCode, ret.body).toBe(201);
    expect(
      (await t.call('POST', `/returns/${ret.json().id}/accept`, { body: {} })).statusCode,
    ).toBe(200);
    const after = await t.call('GET', `/buyers/${b.user.id}/billing`);
    expect(after.json().balance).toBe(15);
    expect((await campaignRow(c.id)).status).toBe('active');
  });

  it('never overdraws under 50 concurrent calls at the boundary', async () => {
    const b = await newBuyer();
    const c = await campaignOf(b);
    await t.call('PUT', `/buyers/${b.user.id}/billing`, { body: { mode: 'prepaid' } });
    await t.call('POST', `/buyers/${b.user.id}/deposits`, { body: { amount: 105 } });
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(c.offerId)));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const billed = await billedOf(c.offerId);
    expect(billed).toHaveLength(10);
    const [row] = await t.db.select().from(buyerBilling).where(eq(buyerBilling.buyerId, b.user.id));
    expect(row!.balanceCents).toBe(500n);
    expect(await campaignRow(c.id)).toMatchObject({ spent: '100.00', status: 'paused' });
    const rest = (await t.db.select().from(leads).where(eq(leads.offerId, c.offerId))).filter(
      (l) => l.billOutcome !== 'billed',
    );
    expect(rest).toHaveLength(40);
    expect(rest.every((l) => l.billedAmount === null && l.billReason)).toBe(true);
  });

  it('shares one balance between two campaigns under 50 concurrent calls', async () => {
    const b = await newBuyer();
    const c1 = await campaignOf(b);
    const c2 = await campaignOf(b);
    await t.call('PUT', `/buyers/${b.user.id}/billing`, { body: { mode: 'prepaid' } });
    await t.call('POST', `/buyers/${b.user.id}/deposits`, { body: { amount: 120 } });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => post(i % 2 ? c1.offerId : c2.offerId)),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const billed = [...(await billedOf(c1.offerId)), ...(await billedOf(c2.offerId))];
    expect(billed).toHaveLength(12);
    const [row] = await t.db.select().from(buyerBilling).where(eq(buyerBilling.buyerId, b.user.id));
    expect(row!.balanceCents).toBe(0n);
    expect((await campaignRow(c1.id)).status).toBe('paused');
    expect((await campaignRow(c2.id)).status).toBe('paused');
  });

  it('validates a deposit and 404s an unknown buyer', async () => {
    const b = await newBuyer();
    const bad = await t.call('POST', `/buyers/${b.user.id}/deposits`, { body: { amount: -3 } });
    expect(bad.statusCode).toBe(400);
    const pubId = pub.id;
    expect((await t.call('GET', `/buyers/${pubId}/billing`)).statusCode).toBe(404);
  });
});

describe('postpaid invoices', () => {
  it('invoices a past month: lines by campaign and day, the return credited, total = sum of lines', async () => {
    const b = await newBuyer();
    const c1 = await campaignOf(b, 10);
    const c2 = await campaignOf(b, 7.5);
    await post(c1.offerId, '2026-10-03T15:00:00Z');
    await post(c1.offerId, '2026-10-03T16:00:00Z');
    await post(c1.offerId, '2026-10-04T15:00:00Z');
    await post(c2.offerId, '2026-10-04T15:00:00Z');
    // A return accepted in October (its decision dated there).
    const [lead] = await billedOf(c2.offerId);
    await t.db.insert(callReturns).values({
      leadId: lead!.id,
      campaignId: c2.id,
      buyerId: b.user.id,
      reason: 'Bad',
      amount: '7.50',
      status: 'accepted',
      decidedAt: new Date('2026-10-20T12:00:00Z'),
    });

    const res = await t.call('POST', `/buyers/${b.user.id}/invoices`, {
      body: { month: '2026-10' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const inv = res.json();
    expect(inv).toMatchObject({ month: '2026-10', currency: 'USD', total: 30 });
    const again = await t.call('POST', `/buyers/${b.user.id}/invoices`, {
      body: { month: '2026-10' },
    });
    expect(again.json().id).toBe(inv.id);

    const csv = await asBuyer(b, 'GET', `/invoices/${inv.id}.csv`);
    expect(csv.statusCode, csv.body).toBe(200);
    const rows = csv.body.trim().split(/\r?\n/).slice(1);
    const amounts = rows.slice(0, -1).map((r) => Number(r.split(',').at(-1)));
    expect(rows).toHaveLength(5); // 3 call lines, 1 return, the total
    expect(amounts.reduce((s, a) => s + a, 0)).toBeCloseTo(30, 2);
    expect(rows.at(-1)).toBe('total,,,,30');
    expect(amounts).toContain(-7.5);

    const pdf = await asBuyer(b, 'GET', `/invoices/${inv.id}.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');

    const list = await asBuyer(b, 'GET', '/invoices');
    expect(list.json().items.map((i: { id: string }) => i.id)).toEqual([inv.id]);
    expect((await asBuyer(b, 'GET', '/billing')).json().invoices).toHaveLength(1);

    // Another buyer never sees it.
    const other = await newBuyer();
    expect((await asBuyer(other, 'GET', `/invoices/${inv.id}.pdf`)).statusCode).toBe(404);
    expect((await asBuyer(other, 'GET', `/invoices/${inv.id}.csv`)).statusCode).toBe(404);
    expect((await asBuyer(other, 'GET', '/invoices')).json().items).toEqual([]);
    // The admin reads it too.
    expect((await t.call('GET', `/invoices/${inv.id}.csv`)).statusCode).toBe(200);
  });

  it('refuses the current month; the monthly job invoices last month once', async () => {
    const b = await newBuyer();
    const c = await campaignOf(b, 4);
    const now = new Date();
    const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    const res = await t.call('POST', `/buyers/${b.user.id}/invoices`, { body: { month } });
    expect(res.statusCode).toBe(400);
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 12, 15));
    await post(c.offerId, last.toISOString());
    expect(await runMonthlyInvoices(t.db)).toBeGreaterThanOrEqual(1);
    expect(await runMonthlyInvoices(t.db)).toBe(0);
    const inv = (await asBuyer(b, 'GET', '/invoices')).json().items;
    expect(inv).toMatchObject([{ total: 4 }]);
  });
});
