import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { noOfferRules } from '../../../contract/offer-rules.ts';
import { PUBLISHER_MESSAGES } from '../../../contract/publisher.ts';
import { leads, offerApplications, payouts } from '../../db/schema.ts';
import { fileTestApp } from '../../test/build-test-app.ts';
import { callAs } from '../../test/call-as.ts';
import {
  buildOffer,
  buildPublisher,
  signedIn,
  type TestUser,
  tokenFor,
} from '../../test/factories.ts';
import { deleteStaleDrafts } from '../applications/publisher-applications.service.ts';

const t = fileTestApp(async (app) => ({
  alice: await signedIn(app, buildPublisher(app.db, { name: 'Alice Caller' })),
  bob: await signedIn(app, buildPublisher(app.db)),
}));

const call = (
  token: string,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: Record<string, unknown>,
) => callAs(t.app, token, method, `/api/v1/publisher${url}`, { body: payload });

const daysAgo = (n: number, hour = 12) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() - n);
  d.setUTCHours(hour, 0, 0, 0);
  return d;
};

describe('offers and applications', () => {
  it('lists only active offers with vertical, payout and script instructions', async () => {
    const active = await buildOffer(t.db, {
      title: 'Auto Insurance Inbound',
      vertical: 'Auto',
      payout: '42.50',
      scriptInstructions: 'Ask for the ZIP code first.',
    });
    const inactive = await buildOffer(t.db, { title: 'Old offer', status: 'inactive' });
    const res = await call(t.alice.token, 'GET', '/offers');
    expect(res.statusCode).toBe(200);
    const ids = res.json().items.map((o: { id: string }) => o.id);
    expect(ids).toContain(active.id);
    expect(ids).not.toContain(inactive.id);
    expect(res.json().items.find((o: { id: string }) => o.id === active.id)).toEqual({
      id: active.id,
      title: 'Auto Insurance Inbound',
      vertical: 'Auto',
      payout: 42.5,
      your_payout: null,
      script_instructions: 'Ask for the ZIP code first.',
      rules: noOfferRules,
      created_at: expect.any(String),
      application_id: null,
      application_status: null,
      application_reason: null,
      tracking_numbers: [],
    });
  });

  it('filters offers by a search term', async () => {
    await buildOffer(t.db, { title: 'Solar Leads West', vertical: 'Solar' });
    const res = await call(t.alice.token, 'GET', '/offers?search=solar');
    expect(res.json().items.map((o: { title: string }) => o.title)).toEqual(['Solar Leads West']);
    expect(res.json().total).toBe(1);
  });

  it('creates a draft (201) that does not show as applied', async () => {
    const offer = await buildOffer(t.db);
    const res = await call(t.alice.token, 'POST', '/applications', { offer_id: offer.id });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ offer_id: offer.id, status: 'draft' });
    const list = (await call(t.alice.token, 'GET', '/offers')).json();
    expect(list.items.find((o: { id: string }) => o.id === offer.id).application_status).toBeNull();
    const overview = (await call(t.alice.token, 'GET', '/overview')).json();
    expect(overview.applied_offers).toBe(0);
  });

  it('reuses the open draft when Apply Now is clicked twice', async () => {
    const offer = await buildOffer(t.db);
    const first = (
      await call(t.alice.token, 'POST', '/applications', { offer_id: offer.id })
    ).json();
    const second = await call(t.alice.token, 'POST', '/applications', { offer_id: offer.id });
    expect(second.statusCode).toBe(201);
    expect(second.json().id).toBe(first.id);
    const rows = await t.db
      .select()
      .from(offerApplications)
      .where(eq(offerApplications.offerId, offer.id));
    expect(rows).toHaveLength(1);
  });

  it("answers 409 'Already Applied' when a submitted application exists", async () => {
    const offer = await buildOffer(t.db);
    await t.db
      .insert(offerApplications)
      .values({ offerId: offer.id, publisherId: t.alice.id, status: 'pending' });
    const res = await call(t.alice.token, 'POST', '/applications', { offer_id: offer.id });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({
      code: 'already_applied',
      message: 'You have already submitted an application for this offer.',
    });
    const list = (await call(t.alice.token, 'GET', '/offers')).json();
    expect(list.items.find((o: { id: string }) => o.id === offer.id).application_status).toBe(
      'pending',
    );
  });

  it('refuses a pending publisher with 403 and a clear message, and creates nothing', async () => {
    const pending = await buildPublisher(t.db, { status: 'pending' });
    const token = await tokenFor(t.db, t.config.jwtSecret, pending);
    const offer = await buildOffer(t.db);
    const res = await call(token, 'POST', '/applications', { offer_id: offer.id });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toEqual({
      code: 'account_pending',
      message: PUBLISHER_MESSAGES.accountPending,
    });
    const rows = await t.db
      .select()
      .from(offerApplications)
      .where(eq(offerApplications.publisherId, pending.id));
    expect(rows).toHaveLength(0);
    // A pending publisher may still browse offers.
    expect((await call(token, 'GET', '/offers')).statusCode).toBe(200);
  });

  it('lets a legacy active publisher apply', async () => {
    const legacy = await buildPublisher(t.db, { status: 'active' });
    const token = await tokenFor(t.db, t.config.jwtSecret, legacy);
    const offer = await buildOffer(t.db);
    expect((await call(token, 'POST', '/applications', { offer_id: offer.id })).statusCode).toBe(
      201,
    );
  });

  it('answers 404 for an unknown or inactive offer and 400 for a malformed id', async () => {
    const inactive = await buildOffer(t.db, { status: 'inactive' });
    const a = await call(t.alice.token, 'POST', '/applications', { offer_id: inactive.id });
    expect(a.statusCode).toBe(404);
    expect(a.json().error.message).toBe('Offer not found.');
    const b = await call(t.alice.token, 'POST', '/applications', {
      offer_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(b.statusCode).toBe(404);
    const c = await call(t.alice.token, 'POST', '/applications', { offer_id: 'nope' });
    expect(c.statusCode).toBe(400);
    expect(c.json().error.message).toContain('Choose a valid offer.');
  });

  it('deletes its own draft (204) and only a draft', async () => {
    const offer = await buildOffer(t.db);
    const draft = (
      await call(t.alice.token, 'POST', '/applications', { offer_id: offer.id })
    ).json();
    const del = await call(t.alice.token, 'DELETE', `/applications/${draft.id}`);
    expect(del.statusCode).toBe(204);
    const again = await call(t.alice.token, 'DELETE', `/applications/${draft.id}`);
    expect(again.statusCode).toBe(404);

    const [pending] = await t.db
      .insert(offerApplications)
      .values({ offerId: (await buildOffer(t.db)).id, publisherId: t.alice.id, status: 'pending' })
      .returning();
    const res = await call(t.alice.token, 'DELETE', `/applications/${pending!.id}`);
    expect(res.statusCode).toBe(404);
    const [still] = await t.db
      .select()
      .from(offerApplications)
      .where(eq(offerApplications.id, pending!.id));
    expect(still?.status).toBe('pending');
    expect((await call(t.alice.token, 'DELETE', '/applications/not-a-uuid')).statusCode).toBe(404);
  });

  it("answers 404 for another publisher's draft and leaves it alone", async () => {
    const offer = await buildOffer(t.db);
    const bobs = (await call(t.bob.token, 'POST', '/applications', { offer_id: offer.id })).json();
    const res = await call(t.alice.token, 'DELETE', `/applications/${bobs.id}`);
    expect(res.statusCode).toBe(404);
    expect(JSON.stringify(res.json())).not.toContain(offer.id);
    const [row] = await t.db
      .select()
      .from(offerApplications)
      .where(eq(offerApplications.id, bobs.id));
    expect(row?.status).toBe('draft');
  });

  it('removes drafts older than 24 hours, and only those', async () => {
    const offer = await buildOffer(t.db);
    const [old] = await t.db
      .insert(offerApplications)
      .values({
        offerId: offer.id,
        publisherId: t.bob.id,
        status: 'draft',
        createdAt: new Date(Date.now() - 25 * 3_600_000),
        updatedAt: new Date(Date.now() - 25 * 3_600_000),
      })
      .returning();
    const [oldPending] = await t.db
      .insert(offerApplications)
      .values({
        offerId: offer.id,
        publisherId: t.alice.id,
        status: 'pending',
        updatedAt: new Date(Date.now() - 48 * 3_600_000),
      })
      .returning();
    const fresh = (
      await call(t.bob.token, 'POST', '/applications', { offer_id: (await buildOffer(t.db)).id })
    ).json();
    const n = await deleteStaleDrafts({ db: t.db });
    expect(n).toBe(1);
    const left = await t.db.select({ id: offerApplications.id }).from(offerApplications);
    const ids = left.map((r) => r.id);
    expect(ids).not.toContain(old!.id);
    expect(ids).toContain(oldPending!.id);
    expect(ids).toContain(fresh.id);
  });
});

describe('leads, payouts and the overview', () => {
  let carol: TestUser;
  let carolToken: string;
  let offerA: Awaited<ReturnType<typeof buildOffer>>;
  let offerB: Awaited<ReturnType<typeof buildOffer>>;

  beforeAll(async () => {
    carol = await buildPublisher(t.db, { name: 'Carol' });
    carolToken = await tokenFor(t.db, t.config.jwtSecret, carol);
    offerA = await buildOffer(t.db, { title: 'Medicare Calls' });
    offerB = await buildOffer(t.db, { title: 'Debt Relief' });
    await t.db.insert(leads).values([
      {
        publisherId: carol.id,
        offerId: offerA.id,
        payout: '10.25',
        status: 'approved',
        callDuration: 3,
        timestamp: daysAgo(0, 1),
      },
      {
        publisherId: carol.id,
        offerId: offerA.id,
        payout: '20.00',
        status: 'pending',
        callDuration: 7,
        timestamp: daysAgo(0, 2),
      },
      {
        publisherId: carol.id,
        offerId: offerB.id,
        payout: '5.10',
        status: 'rejected',
        callDuration: 1,
        timestamp: daysAgo(3),
      },
      {
        publisherId: carol.id,
        offerId: offerB.id,
        payout: '100.00',
        status: 'approved',
        callDuration: 12,
        timestamp: daysAgo(40),
      },
      // Someone else's lead never counts.
      {
        publisherId: t.bob.id,
        offerId: offerA.id,
        payout: '999.00',
        status: 'approved',
        callDuration: 9,
        timestamp: daysAgo(1),
      },
    ]);
    await t.db.insert(payouts).values([
      { publisherId: carol.id, amount: '50.00', notes: 'March', date: daysAgo(10), status: 'paid' },
      { publisherId: carol.id, amount: '25.55', notes: null, date: daysAgo(2) },
      { publisherId: t.bob.id, amount: '777.00', date: daysAgo(1) },
    ]);
    await t.db.insert(offerApplications).values([
      {
        offerId: offerA.id,
        publisherId: carol.id,
        status: 'approved',
        createdAt: daysAgo(8),
        updatedAt: daysAgo(5),
      },
      {
        offerId: offerB.id,
        publisherId: carol.id,
        status: 'rejected',
        createdAt: daysAgo(8),
        updatedAt: daysAgo(6),
      },
      { offerId: (await buildOffer(t.db)).id, publisherId: carol.id, status: 'draft' },
    ]);
  });

  it('computes the four cards from this publisher’s data only', async () => {
    const res = await call(carolToken, 'GET', '/overview');
    expect(res.statusCode).toBe(200);
    const o = res.json();
    expect(o.applied_offers).toBe(2);
    expect(o.total_leads).toBe(4);
    // Issue 27: Total Earnings = approved leads (10.25 + 100); Pending Payouts = earned and not
    // paid yet: the earnings minus the 50.00 marked paid (the 25.55 is in a run, not yet paid).
    expect(o.total_earnings).toBe(110.25);
    expect(o.pending_payouts).toBe(60.25);
    expect(o.balance).toMatchObject({ owed: 34.7, recorded: 25.55, paid: 50, unpaid: 60.25 });
  });

  it('has a 30-day chart with today last and empty days as zero', async () => {
    const o = (await call(carolToken, 'GET', '/overview')).json();
    expect(o.daily).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    // Earnings are the approved calls' payout: the pending $20.00 and the rejected $5.10 earn
    // nothing yet (issue 27).
    expect(o.daily[29]).toEqual({ date: today, leads: 2, earnings: 10.25 });
    expect(o.daily[26]).toEqual({
      date: daysAgo(3).toISOString().slice(0, 10),
      leads: 1,
      earnings: 0,
    });
    const sum = o.daily.reduce((n: number, d: { leads: number }) => n + d.leads, 0);
    expect(sum).toBe(3); // the 40-day-old lead is outside the chart
  });

  it('lists recent activity newest first from leads, payouts and decisions', async () => {
    const o = (await call(carolToken, 'GET', '/overview')).json();
    const types = o.recent_activity.map((a: { type: string }) => a.type);
    expect(types.slice(0, 2)).toEqual(['lead', 'lead']);
    expect(types).toContain('payout');
    expect(types).toContain('application_approved');
    expect(types).toContain('application_rejected');
    expect(o.recent_activity.length).toBeLessThanOrEqual(10);
    const ats = o.recent_activity.map((a: { at: string }) => Date.parse(a.at));
    expect([...ats].sort((a, b) => b - a)).toEqual(ats);
    const payout = o.recent_activity.find((a: { type: string }) => a.type === 'payout');
    expect(payout).toMatchObject({ title: 'Payout recorded', description: '$25.55' });
    expect(JSON.stringify(o)).not.toContain('999');
  });

  it('starts at zero for a new publisher', async () => {
    const o = (await call(t.alice.token, 'GET', '/overview')).json();
    expect(o).toMatchObject({ total_earnings: 0, total_leads: 0, pending_payouts: 0 });
  });

  it('lists own leads newest first with offer title, payout, status, duration', async () => {
    const res = await call(carolToken, 'GET', '/leads');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(4);
    expect(body.items.map((l: { payout: number }) => l.payout)).toEqual([20, 10.25, 5.1, 100]);
    expect(body.items[0]).toMatchObject({
      offer_title: 'Medicare Calls',
      offer_id: offerA.id,
      status: 'pending',
      call_duration: 7,
    });
  });

  it('filters leads by status and by day, and pages them', async () => {
    const approved = (await call(carolToken, 'GET', '/leads?status=approved')).json();
    expect(approved.items.map((l: { payout: number }) => l.payout)).toEqual([10.25, 100]);
    const day = daysAgo(3).toISOString().slice(0, 10);
    const oneDay = (await call(carolToken, 'GET', `/leads?from=${day}&to=${day}`)).json();
    expect(oneDay.items.map((l: { payout: number }) => l.payout)).toEqual([5.1]);
    const since = (await call(carolToken, 'GET', `/leads?from=${day}`)).json();
    expect(since.total).toBe(3);
    const page2 = (await call(carolToken, 'GET', '/leads?page=2&page_size=3')).json();
    expect(page2).toMatchObject({ total: 4, page: 2, page_size: 3 });
    expect(page2.items).toHaveLength(1);
  });

  it('refuses bad lead filters with 400', async () => {
    for (const q of [
      'status=paid',
      'from=2025-02-30',
      'from=yesterday',
      'from=2025-03-02&to=2025-03-01',
      'page=0',
    ]) {
      const res = await call(carolToken, 'GET', `/leads?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
  });

  it('lists own payouts newest first', async () => {
    const res = await call(carolToken, 'GET', '/payouts');
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(2);
    expect(res.json().items).toEqual([
      {
        id: expect.any(String),
        amount: 25.55,
        notes: null,
        date: daysAgo(2).toISOString(),
        status: 'recorded',
        reference: null,
        period_from: null,
        period_to: null,
        statement_number: null,
      },
      {
        id: expect.any(String),
        amount: 50,
        notes: 'March',
        date: daysAgo(10).toISOString(),
        status: 'paid',
        reference: null,
        period_from: null,
        period_to: null,
        statement_number: null,
      },
    ]);
  });

  it("never shows another publisher's leads or payouts", async () => {
    const l = (await call(t.alice.token, 'GET', '/leads')).json();
    const p = (await call(t.alice.token, 'GET', '/payouts')).json();
    expect(l).toMatchObject({ items: [], total: 0 });
    expect(p).toMatchObject({ items: [], total: 0 });
  });
});
