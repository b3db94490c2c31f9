import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReport } from '../../../contract/reports.ts';
import {
  auditLog,
  buyerBilling,
  campaignAlerts,
  campaignSpendDays,
  campaigns,
  leads,
} from '../../db/schema.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { callAs } from '../../test/call-as.ts';
import { buildBuyer, buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';
import { mailsTo } from '../../test/gotrue.ts';
import { sendInHeldBatches } from '../../test/held-batches.ts';
import { newTracker, type TestTracker, type TrackerCall } from '../../test/tracker.ts';
import { callBatchCounts } from '../ingest/lead-ingest.ts';
import { runCampaignChecks } from './campaigns.job.ts';

/**
 * Issue 31, items 1-3: the campaign lifecycle and who may move it, calls attributed by the
 * tracker's buyer id or the offer's single campaign, and budgets and daily caps that hold under
 * concurrent calls, with the automatic pauses and the buyer's mails.
 */

let t: AdminTestContext;
let pub: TestUser;
let buyer: TestUser;
let buyerToken: string;
let otherToken: string;
let tracker: TestTracker;
let integrationId: string;

let seq = 0;
const callId = () => tracker.callId();

beforeAll(async () => {
  t = await setupAdminTest();
  pub = await buildPublisher(t.db);
  buyer = await buildBuyer(t.db, { name: 'Bea Buyer' });
  buyerToken = await t.tokenOf(buyer);
  otherToken = await t.tokenOf(await buildBuyer(t.db));
  tracker = await newTracker(t, 'Buyer tracker');
  integrationId = tracker.integrationId;
});
afterAll(() => t.close());

const asBuyer = (token: string, method: 'POST' | 'PATCH', url: string, payload?: object) =>
  callAs(t.app, token, method, `/api/v1/buyer${url}`, { body: payload });

async function newCampaign(body: Record<string, unknown> = {}): Promise<string> {
  const res = await asBuyer(buyerToken, 'POST', '/campaigns', { name: `C${seq++}`, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function approved(
  offerId: string,
  terms: Record<string, unknown> = {},
  body: Record<string, unknown> = {},
): Promise<string> {
  const id = await newCampaign(body);
  const res = await t.call('POST', `/campaigns/${id}/approve`, {
    body: { offer_id: offerId, price_per_call: 10, ...terms },
  });
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

const post = (call: TrackerCall) => tracker.post(call);
/** Posts a completed call of `pub` on the offer and answers its lead. */
const call = async (offerId: string, over: TrackerCall = {}) =>
  (await tracker.send(tracker.completed(pub.id, offerId, over))).lead;

const campaignRow = async (id: string) =>
  (await t.db.select().from(campaigns).where(eq(campaigns.id, id)))[0]!;

describe('campaign lifecycle', () => {
  it('starts pending; an admin approves it with an offer and terms, audited, and the buyer is told', async () => {
    const offer = await buildOffer(t.db);
    const id = await newCampaign({ budget: 500 });
    expect((await campaignRow(id)).status).toBe('pending');
    const res = await t.call('POST', `/campaigns/${id}/approve`, {
      body: {
        offer_id: offer.id,
        price_per_call: 25.5,
        buffer_seconds: 60,
        daily_cap: 5,
        allowed_states: ['ca', 'NY'],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'active',
      offer_id: offer.id,
      offer_title: offer.title,
      price_per_call: 25.5,
      buffer_seconds: 60,
      daily_cap: 5,
      allowed_states: ['CA', 'NY'],
      spent: 0,
    });
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, id));
    expect(entry).toMatchObject({ action: 'campaign.approve', entityType: 'campaign' });
    const mails = await mailsTo(t.db, buyer.email);
    expect(mails.some((m) => m.subject.startsWith('Campaign approved'))).toBe(true);
    // Approving twice is a 409 with the reason.
    const again = await t.call('POST', `/campaigns/${id}/approve`, {
      body: { offer_id: offer.id, price_per_call: 1 },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('Only a pending campaign can be approved or rejected.');
  });

  it('refuses an approval without an offer or a price, and with an unknown offer', async () => {
    const id = await newCampaign();
    const none = await t.call('POST', `/campaigns/${id}/approve`, { body: {} });
    expect(none.statusCode).toBe(400);
    const unknown = await t.call('POST', `/campaigns/${id}/approve`, {
      body: { offer_id: '00000000-0000-4000-8000-000000000000', price_per_call: 5 },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe('The selected offer does not exist.');
  });

  it('rejects with a reason the buyer reads', async () => {
    const id = await newCampaign();
    expect(
      (await t.call('POST', `/campaigns/${id}/reject`, { body: { reason: ' ' } })).statusCode,
    ).toBe(400);
    const res = await t.call('POST', `/campaigns/${id}/reject`, {
      body: { reason: 'We have no Medicare traffic.' },
    });
    expect(res.json()).toMatchObject({
      status: 'rejected',
      status_reason: 'We have no Medicare traffic.',
    });
    const buyerPause = await asBuyer(buyerToken, 'POST', `/campaigns/${id}/pause`);
    expect(buyerPause.statusCode).toBe(409);
  });

  it('lets the buyer pause and resume their own, never an admin pause, never another buyer', async () => {
    const offer = await buildOffer(t.db);
    const id = await approved(offer.id);
    const paused = await asBuyer(buyerToken, 'POST', `/campaigns/${id}/pause`);
    expect(paused.json()).toMatchObject({ status: 'paused', paused_by: 'buyer' });
    expect((await asBuyer(otherToken, 'POST', `/campaigns/${id}/resume`)).statusCode).toBe(404);
    expect((await asBuyer(buyerToken, 'POST', `/campaigns/${id}/resume`)).json().status).toBe(
      'active',
    );

    const admin = await t.call('POST', `/campaigns/${id}/pause`, {
      body: { reason: 'Complaints' },
    });
    expect(admin.json()).toMatchObject({
      status: 'paused',
      paused_by: 'admin',
      status_reason: 'Paused by an administrator: Complaints',
    });
    const refused = await asBuyer(buyerToken, 'POST', `/campaigns/${id}/resume`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(
      'An administrator paused this campaign; only an administrator can resume it.',
    );
    expect((await t.call('POST', `/campaigns/${id}/resume`, { body: {} })).json().status).toBe(
      'active',
    );
    expect((await asBuyer(buyerToken, 'POST', `/campaigns/${id}/end`)).json().status).toBe('ended');
    expect((await asBuyer(buyerToken, 'POST', `/campaigns/${id}/resume`)).statusCode).toBe(409);
  });
});

describe('attribution', () => {
  it("bills the offer's single live campaign at its price when the tracker sends no revenue", async () => {
    const offer = await buildOffer(t.db);
    const id = await approved(offer.id, { price_per_call: 12 });
    const lead = await call(offer.id);
    expect(lead).toMatchObject({
      campaignId: id,
      billOutcome: 'billed',
      billedAmount: '12.00',
      revenue: '12.00',
    });
    // The tracker's revenue wins over the price.
    const sent = await call(offer.id, { revenue: '30.00' });
    expect(sent).toMatchObject({ billedAmount: '30.00', revenue: '30.00' });
    expect((await campaignRow(id)).spent).toBe('42.00');
    // The admin's lead detail shows the campaign and what it billed.
    const detail = await t.call('GET', `/leads/${lead.id}`);
    expect(detail.json().campaign).toMatchObject({ id, billed: 12, bill_reason: 'Billed 12.00' });
  });

  it('attributes by the tracker buyer id attached to a campaign when the offer has two', async () => {
    const offer = await buildOffer(t.db);
    const a = await approved(offer.id);
    const b = await approved(offer.id);
    const put = await t.call('PUT', `/campaigns/${b}/external-ids`, {
      body: { external_ids: [{ integration_id: integrationId, external_id: 'RB-TARGET-9' }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().external_ids).toMatchObject([
      { external_id: 'RB-TARGET-9', integration_name: 'Buyer tracker' },
    ]);
    expect((await call(offer.id, { buyer: 'RB-TARGET-9' })).campaignId).toBe(b);
    expect((await call(offer.id, { buyer: a })).campaignId).toBe(a);
    // Two live campaigns and no buyer id: nobody to bill.
    const orphan = await call(offer.id);
    expect(orphan).toMatchObject({ campaignId: null, billedAmount: null });
  });

  it('attributes a call judged after its campaign was approved mid-call', async () => {
    const offer = await buildOffer(t.db);
    const id = callId();
    const first = await post(tracker.started(pub.id, offer.id, { call_id: id }));
    expect(first.statusCode, first.body).toBe(200);
    const campaign = await approved(offer.id);
    const lead = await call(offer.id, { call_id: id, event: 'completed' });
    expect(lead).toMatchObject({
      campaignId: campaign,
      billOutcome: 'billed',
      billedAmount: '10.00',
    });
  });

  it('records a call the campaign terms refuse, not billed, with the reason', async () => {
    const offer = await buildOffer(t.db);
    await approved(offer.id, { buffer_seconds: 90, allowed_states: ['TX'] });
    expect(await call(offer.id, { duration: 60, state: 'TX' })).toMatchObject({
      billOutcome: 'short',
      billedAmount: null,
      billReason: "Duration 60 s under the campaign's 90 s billable duration",
    });
    expect((await call(offer.id, { state: 'CA' })).billOutcome).toBe('state');
    expect((await call(offer.id, { state: 'TX' })).billOutcome).toBe('billed');
  });
});

describe('budgets and daily caps', () => {
  const burst = (offerId: string, n: number, at = '2026-11-10T15:00:00Z') =>
    Promise.all(
      Array.from({ length: n }, () =>
        post({
          call_id: callId(),
          event: 'completed',
          publisher: pub.id,
          offer: offerId,
          duration: 120,
          timestamp: at,
        }),
      ),
    );
  const billedOf = async (offerId: string) =>
    (await t.db.select().from(leads).where(eq(leads.offerId, offerId))).filter(
      (l) => l.billOutcome === 'billed',
    );

  it('never bills past the budget under 50 concurrent calls, pauses at it and mails at 80% and 100%', async () => {
    const offer = await buildOffer(t.db);
    const id = await approved(offer.id, { price_per_call: 10 }, { budget: 105 });
    const answers = await burst(offer.id, 50);
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(await billedOf(offer.id)).toHaveLength(10);
    const c = await campaignRow(id);
    expect(c).toMatchObject({ spent: '100.00', status: 'paused', pausedBy: 'budget' });
    const rest = (await t.db.select().from(leads).where(eq(leads.offerId, offer.id))).filter(
      (l) => l.billOutcome !== 'billed',
    );
    expect(rest).toHaveLength(40);
    expect(rest.every((l) => l.billedAmount === null && l.billReason)).toBe(true);
    const kinds = (
      await t.db.select().from(campaignAlerts).where(eq(campaignAlerts.campaignId, id))
    ).map((a) => a.kind);
    expect(kinds.sort()).toEqual(['budget_100', 'budget_80']);
    await runCampaignChecks(t.db, 'http://portal.test');
    const mails = (await mailsTo(t.db, buyer.email)).map((m) => m.subject);
    expect(mails.filter((s) => s.includes('80% of the budget spent'))).toHaveLength(1);
    expect(mails.filter((s) => s.includes('Budget spent: campaign paused'))).toHaveLength(1);
    // The buyer cannot resume until the budget is raised.
    expect((await asBuyer(buyerToken, 'POST', `/campaigns/${id}/resume`)).statusCode).toBe(409);
    await asBuyer(buyerToken, 'PATCH', `/campaigns/${id}`, { budget: 200 });
    expect((await asBuyer(buyerToken, 'POST', `/campaigns/${id}/resume`)).json().status).toBe(
      'active',
    );
  });

  it('bills exactly the daily cap of 50 concurrent calls, pauses, and resumes the next day', async () => {
    const offer = await buildOffer(t.db);
    const id = await approved(offer.id, { daily_cap: 7 });
    await burst(offer.id, 50);
    expect(await billedOf(offer.id)).toHaveLength(7);
    const [day] = await t.db
      .select()
      .from(campaignSpendDays)
      .where(eq(campaignSpendDays.campaignId, id));
    expect(day).toMatchObject({ day: '2026-11-10', calls: 7, spent: '70.00' });
    expect(await campaignRow(id)).toMatchObject({
      status: 'paused',
      pausedBy: 'daily_cap',
      spent: '70.00',
    });
    // The job resumes it once its day is over.
    await t.db
      .update(campaigns)
      .set({ pausedAt: new Date(Date.now() - 3 * 86_400_000) })
      .where(eq(campaigns.id, id));
    await runCampaignChecks(t.db, 'http://portal.test');
    expect((await campaignRow(id)).status).toBe('active');
  });

  it("bills a batch's calls at its end: those past the budget are written back unbilled and the figures add up", async () => {
    const offer = await buildOffer(t.db);
    const id = await approved(offer.id, { price_per_call: 10 }, { budget: 95 });
    const before = callBatchCounts(t.app.db);
    await sendInHeldBatches(t.app.db, 40, () => burst(offer.id, 40));
    const sent = callBatchCounts(t.app.db);
    // The calls went out in shared batches (drizzle/0046 bills them at each batch's end).
    expect(sent.items - before.items).toBe(40);
    expect(sent.batches - before.batches).toBeLessThan(10);
    const rows = await t.db.select().from(leads).where(eq(leads.offerId, offer.id));
    const billed = rows.filter((l) => l.billOutcome === 'billed');
    expect(billed).toHaveLength(9);
    expect(billed.every((l) => l.billedAmount === '10.00' && l.revenue === '10.00')).toBe(true);
    // A refused call keeps the revenue the tracker sent (none), not the price it was held at.
    const refused = rows.filter((l) => l.billOutcome !== 'billed');
    expect(refused).toHaveLength(31);
    expect(refused.every((l) => l.billedAmount === null && l.revenue === null)).toBe(true);
    // The ninth call left less than a call's price: the campaign paused, the rest were refused.
    expect(new Set(refused.map((l) => `${l.billOutcome}: ${l.billReason}`))).toEqual(
      new Set(['inactive: Campaign paused: The budget of 95.00 is spent.']),
    );
    expect(await campaignRow(id)).toMatchObject({ spent: '90.00', status: 'paused' });
    const days = await t.db
      .select()
      .from(campaignSpendDays)
      .where(eq(campaignSpendDays.campaignId, id));
    expect(days).toEqual([expect.objectContaining({ calls: 9, spent: '90.00' })]);
    // The report folds the final rows only: the campaign's revenue is what was billed.
    const res = await t.call('GET', '/reports', {
      query: { range: 'custom', from: '2026-11-01', to: '2026-11-30', group: 'campaign' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = (res.json() as AdminReport).rows.find((r) => r.key === id);
    expect(row?.figures.revenue).toBe(90);
    expect(row?.figures.calls).toBe(40);
  });

  it("bills a batch with room to spare in one write per campaign, day and buyer: every figure is the sum of the calls' amounts", async () => {
    const offer = await buildOffer(t.db);
    const id = await approved(offer.id, { price_per_call: 10 }, { budget: 450 });
    const balance = async () =>
      (await t.db.select().from(buyerBilling).where(eq(buyerBilling.buyerId, buyer.id)))[0]
        ?.balanceCents ?? 0;
    const balanceBefore = await balance();
    // The tracker's revenue, a different number of cents on each call: 9.01 … 9.40 (368.20).
    const revenues = Array.from({ length: 40 }, (_, i) => (901 + i) / 100);
    const before = callBatchCounts(t.app.db);
    await sendInHeldBatches(t.app.db, 40, () =>
      Promise.all(
        revenues.map((revenue) =>
          post({
            call_id: callId(),
            event: 'completed',
            publisher: pub.id,
            offer: offer.id,
            duration: 120,
            revenue,
            timestamp: '2026-11-12T15:00:00Z',
          }),
        ),
      ),
    );
    expect(callBatchCounts(t.app.db).batches - before.batches).toBeLessThan(10);
    const rows = await t.db.select().from(leads).where(eq(leads.offerId, offer.id));
    expect(rows.map((l) => l.billOutcome)).toEqual(revenues.map(() => 'billed'));
    const cents = rows.reduce((sum, l) => sum + Math.round(Number(l.billedAmount) * 100), 0);
    expect(cents).toBe(36_820);
    // 368.20 + one call's 10.00 is under the 450 budget: nothing paused, the 80% notice given.
    expect(await campaignRow(id)).toMatchObject({ spent: '368.20', status: 'active' });
    const days = await t.db
      .select()
      .from(campaignSpendDays)
      .where(eq(campaignSpendDays.campaignId, id));
    expect(days).toEqual([
      expect.objectContaining({ day: '2026-11-12', calls: 40, spent: '368.20' }),
    ]);
    expect(Number(balanceBefore) - Number(await balance())).toBe(36_820);
    const alerts = await t.db
      .select()
      .from(campaignAlerts)
      .where(eq(campaignAlerts.campaignId, id));
    expect(alerts.map((a) => a.kind)).toEqual(['budget_80']);
  });

  it('pauses a campaign whose end date has passed and mails the buyer', async () => {
    const offer = await buildOffer(t.db);
    const id = await approved(offer.id, {}, { start_date: '2025-01-01', end_date: '2025-01-31' });
    expect((await call(offer.id)).billOutcome).toBe('dates');
    await runCampaignChecks(t.db, 'http://portal.test');
    expect(await campaignRow(id)).toMatchObject({ status: 'paused', pausedBy: 'end_date' });
    const mails = (await mailsTo(t.db, buyer.email)).map((m) => m.subject);
    expect(mails.some((s) => s.startsWith('Campaign paused'))).toBe(true);
  });
});
