import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  auditLog,
  campaigns,
  leads,
  offerApplications,
  payouts,
  settings,
} from '../../db/schema.ts';
import { networkTimeZoneSql } from '../../db/settings.ts';
import { fileAdminTest } from '../../test/admin-test.ts';
import { expectAnswer } from '../../test/expect-answer.ts';
import { buildBuyer, buildOffer, buildPublisher } from '../../test/factories.ts';

const t = fileAdminTest();

describe('GET /admin/stats', () => {
  it('counts pending publishers and applications and sums payouts to the cent', async () => {
    const empty = await t.call('GET', '/stats');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({
      pending_publishers: 0,
      pending_applications: 0,
      total_payouts: 0,
      balance: { paid: 0, recorded: 0 },
    });

    const pending = await buildPublisher(t.db, { status: 'pending' });
    await buildPublisher(t.db, { status: 'pending' });
    const approved = await buildPublisher(t.db);
    const offer = await buildOffer(t.db);
    await t.db.insert(offerApplications).values([
      { offerId: offer.id, publisherId: approved.id, status: 'pending' },
      { offerId: offer.id, publisherId: pending.id, status: 'draft' },
    ]);
    await t.db.insert(payouts).values([
      { publisherId: approved.id, amount: '0.10', status: 'paid' },
      { publisherId: approved.id, amount: '0.20', status: 'paid' },
      { publisherId: approved.id, amount: '1000.05', status: 'paid' },
      { publisherId: approved.id, amount: '99.99' },
    ]);
    const res = await t.call('GET', '/stats');
    // Issue 27: Total Payouts is what was marked paid; the recorded $99.99 is shown apart.
    expect(res.json()).toMatchObject({
      pending_publishers: 2,
      pending_applications: 1,
      total_payouts: 1000.35,
      balance: { paid: 1000.35, recorded: 99.99 },
    });
  });
});

describe('GET /admin/stats/daily', () => {
  it('answers one entry per UTC day for the last 30 days with zeros for quiet days', async () => {
    const p = await buildPublisher(t.db);
    const offer = await buildOffer(t.db);
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const threeDaysAgo = new Date(now.getTime() - 3 * 86_400_000);
    const longAgo = new Date(now.getTime() - 40 * 86_400_000);
    await t.db.insert(leads).values([
      { publisherId: p.id, offerId: offer.id, payout: '1.00', timestamp: now },
      { publisherId: p.id, offerId: offer.id, payout: '1.00', timestamp: now },
      { publisherId: p.id, offerId: offer.id, payout: '1.00', timestamp: threeDaysAgo },
      { publisherId: p.id, offerId: offer.id, payout: '1.00', timestamp: longAgo },
    ]);
    await t.db.insert(payouts).values([
      { publisherId: p.id, amount: '10.10', date: threeDaysAgo },
      { publisherId: p.id, amount: '0.15', date: threeDaysAgo },
      { publisherId: p.id, amount: '99.00', date: longAgo },
    ]);
    const res = await t.call('GET', '/stats/daily');
    expect(res.statusCode).toBe(200);
    const days = res.json().days as { date: string; leads: number; payouts: number }[];
    expect(days).toHaveLength(30);
    expect(days[29]!.date).toBe(today);
    expect(days[29]!.leads).toBe(2);
    const d3 = days.find((d) => d.date === threeDaysAgo.toISOString().slice(0, 10))!;
    expect(d3).toMatchObject({ leads: 1, payouts: 10.25 });
    expect(days.reduce((s, d) => s + d.leads, 0)).toBe(3);
    // Dates are consecutive.
    for (let i = 1; i < days.length; i++) {
      expect(Date.parse(days[i]!.date) - Date.parse(days[i - 1]!.date)).toBe(86_400_000);
    }
    const week = await t.call('GET', '/stats/daily', { query: { days: '7' } });
    expect(week.json().days).toHaveLength(7);
    for (const days of ['0', '367', 'x', '1.5']) {
      const bad = await t.call('GET', '/stats/daily', { query: { days } });
      expect(bad.statusCode, days).toBe(400);
      expect(bad.json().error.message).toContain('days must be a whole number from 1 to 366.');
    }
  });
});

describe('GET /admin/stats/range', () => {
  it('answers the picked days of the network zone: calls, payouts per day and in total', async () => {
    await t.db.update(settings).set({ timezone: 'America/New_York' }).where(eq(settings.id, 1));
    const p = await buildPublisher(t.db);
    const offer = await buildOffer(t.db);
    // 2026-11-01 is the 25-hour day in New York: 04:30Z is 00:30 EDT (Nov 1), 04:30Z on Nov 2
    // is 23:30 EST (still Nov 1); 05:30Z on Nov 2 is Nov 2.
    await t.db.insert(leads).values([
      {
        publisherId: p.id,
        offerId: offer.id,
        payout: '2.00',
        status: 'approved',
        timestamp: new Date('2026-11-01T04:30:00Z'),
      },
      {
        publisherId: p.id,
        offerId: offer.id,
        payout: '3.00',
        timestamp: new Date('2026-11-02T04:30:00Z'),
      },
      {
        publisherId: p.id,
        offerId: offer.id,
        payout: '4.00',
        timestamp: new Date('2026-11-02T05:30:00Z'),
      },
      {
        publisherId: p.id,
        offerId: offer.id,
        payout: '5.00',
        timestamp: new Date('2026-11-01T03:59:00Z'),
      },
    ]);
    await t.db.insert(payouts).values([
      {
        publisherId: p.id,
        amount: '10.10',
        date: new Date('2026-11-02T04:59:00Z'),
        status: 'paid',
      },
      { publisherId: p.id, amount: '0.25', date: new Date('2026-11-02T05:00:00Z') },
      { publisherId: p.id, amount: '7.00', date: new Date('2026-10-31T12:00:00Z') },
    ]);
    const res = await t.call('GET', '/stats/range', {
      query: { range: 'custom', from: '2026-11-01', to: '2026-11-02' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      timezone: 'America/New_York',
      range: 'custom',
      from: '2026-11-01',
      to: '2026-11-02',
      total_payouts: 10.1,
      recorded_payouts: 0.25,
      leads: 3,
      days: [
        { date: '2026-11-01', leads: 2, payouts: 10.1 },
        { date: '2026-11-02', leads: 1, payouts: 0.25 },
      ],
    });
    // Marking the recorded one paid moves it to Total Payouts on its day (payout_day_totals).
    await t.db.update(payouts).set({ status: 'paid' }).where(eq(payouts.amount, '0.25'));
    const after = await t.call('GET', '/stats/range', {
      query: { range: 'custom', from: '2026-11-01', to: '2026-11-02' },
    });
    expect(after.json()).toMatchObject({ total_payouts: 10.35, recorded_payouts: 0 });
    const week = await t.call('GET', '/stats/range', { query: { range: 'last_7_days' } });
    expect(week.json().days).toHaveLength(7);
    const noDays = await t.call('GET', '/stats/range', { query: { range: 'custom' } });
    expect(noDays.statusCode).toBe(400);
    expect(noDays.json().error.message).toContain('A custom range needs a first day');
    const bad = await t.call('GET', '/stats/range', { query: { range: 'forever' } });
    expect(bad.statusCode).toBe(400);
    await t.db.update(settings).set({ timezone: 'UTC' }).where(eq(settings.id, 1));
  });
});

describe('GET /admin/campaigns', () => {
  it("lists every buyer's campaigns with the buyer's name and e-mail; search, sort, page", async () => {
    const b1 = await buildBuyer(t.db, { name: 'Carla Campaigner' });
    const b2 = await buildBuyer(t.db, { name: 'Dan Buyer' });
    await t.db.insert(campaigns).values([
      {
        buyerId: b1.id,
        name: 'Spring Push',
        goal: 'Calls',
        targetAudience: 'Homeowners',
        location: 'TX',
        budget: '1500.50',
        startDate: '2024-04-01',
        endDate: '2024-04-30',
      },
      { buyerId: b2.id, name: 'No Budget', budget: null },
    ]);
    const res = await t.call('GET', '/campaigns', { query: { sort: 'name', order: 'asc' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(2);
    expect(res.json().items[0]).toMatchObject({
      name: 'No Budget',
      budget: null,
      buyer_name: 'Dan Buyer',
    });
    expect(res.json().items[1]).toMatchObject({
      buyer_id: b1.id,
      buyer_name: 'Carla Campaigner',
      buyer_email: b1.email,
      name: 'Spring Push',
      goal: 'Calls',
      target_audience: 'Homeowners',
      location: 'TX',
      budget: 1500.5,
      start_date: '2024-04-01',
      end_date: '2024-04-30',
    });
    const search = await t.call('GET', '/campaigns', { query: { q: 'carla' } });
    expect(search.json().items.map((c: { name: string }) => c.name)).toEqual(['Spring Push']);
    const byBuyer = await t.call('GET', '/campaigns', { query: { buyer_id: b2.id } });
    expect(byBuyer.json().total).toBe(1);
    expect((await t.call('GET', '/campaigns', { query: { sort: 'goal' } })).statusCode).toBe(400);
  });
});

describe('settings', () => {
  it('answers every field, with defaults on a fresh database', async () => {
    const res = await t.call('GET', '/settings');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      welcome_message: 'Welcome to the portal!',
      logo_url: null,
      company_name: expect.any(String),
      support_email: expect.stringContaining('@'),
    });
    expect(Date.parse(res.json().updated_at)).not.toBeNaN();
  });

  it('recreates the row with defaults when it is missing', async () => {
    await t.db.delete(settings);
    const res = await t.call('GET', '/settings');
    expect(res.statusCode).toBe(200);
    expect(res.json().welcome_message).toBe('Welcome to the portal!');
  });

  it('updates company name, welcome message and support e-mail, sets updated_at, audits', async () => {
    const before = (await t.call('GET', '/settings')).json();
    const res = await t.call('PATCH', '/settings', {
      body: {
        company_name: '  Acme Leads ',
        welcome_message: 'Hello partners',
        support_email: 'help@acme.test',
      },
    });
    expectAnswer(res, 200, {
      company_name: 'Acme Leads',
      welcome_message: 'Hello partners',
      support_email: 'help@acme.test',
    });
    expect(Date.parse(res.json().updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    const pub = await t.app.inject({ url: '/api/v1/public/settings' });
    expect(pub.json().company_name).toBe('Acme Leads');
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'settings.update'));
    expect(audit).toMatchObject({
      entityType: 'settings',
      before: expect.objectContaining({ company_name: before.company_name }),
      after: expect.objectContaining({ company_name: 'Acme Leads' }),
    });
    const partial = await t.call('PATCH', '/settings', { body: { welcome_message: '' } });
    expect(partial.json()).toMatchObject({ company_name: 'Acme Leads', welcome_message: '' });
  });

  it('refuses invalid settings with a 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ company_name: '' }, 'company_name', 'Company name is required.'],
      [{ company_name: 'x'.repeat(121) }, 'company_name', 'at most 120'],
      [{ support_email: 'not-an-email' }, 'support_email', 'valid e-mail address'],
      [{ support_email: 5 }, 'support_email', ''],
      [{ welcome_message: 'x'.repeat(2001) }, 'welcome_message', 'at most 2000'],
    ];
    for (const [body, field, message] of cases) {
      const res = await t.call('PATCH', '/settings', { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.details?.[field]?.join(' ')).toContain(message);
    }
    const empty = await t.call('PATCH', '/settings', { body: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toContain('Nothing to change.');
  });
});

describe('network time zone', () => {
  it('starts at UTC, takes an IANA name in its canonical spelling, and cuts days in SQL by it', async () => {
    expect((await t.call('GET', '/settings')).json().timezone).toBe('UTC');
    const res = await t.call('PATCH', '/settings', { body: { timezone: 'america/new_york' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().timezone).toBe('America/New_York');
    const pub = await t.app.inject({ url: '/api/v1/public/settings' });
    expect(pub.json().timezone).toBe('America/New_York');
    // 03:30 UTC on 2026-11-02 is still 1 November in New York (UTC-5 after the DST change).
    const day = await t.db.execute(
      sql`select to_char(timestamptz '2026-11-02 03:30:00+00' at time zone ${networkTimeZoneSql}, 'YYYY-MM-DD') as d`,
    );
    expect((day as unknown as { rows: { d: string }[] }).rows[0]!.d).toBe('2026-11-01');
    await t.call('PATCH', '/settings', { body: { timezone: 'UTC' } });
  });

  it('refuses what is not a zone name, offsets included, with a sentence', async () => {
    for (const timezone of ['Mars/Olympus', '+05:00', 'EST5EDT;drop', '', 5]) {
      const res = await t.call('PATCH', '/settings', { body: { timezone } });
      expect(res.statusCode, String(timezone)).toBe(400);
      expect(res.json().error.details?.timezone?.join(' ')).toMatch(/time zone/i);
    }
  });
});

describe('GET /admin/audit', () => {
  it('pages the audit log newest first and filters by entity', async () => {
    const offer = await t.call('POST', '/offers', {
      body: { title: 'Audited', vertical: 'Home', payout: 1 },
    });
    await t.call('PATCH', `/offers/${offer.json().id}`, { body: { status: 'inactive' } });
    const res = await t.call('GET', '/audit', { query: { entity_type: 'offer' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((a: { action: string }) => a.action)).toEqual([
      'offer.update',
      'offer.create',
    ]);
    expect(res.json().items[0]).toMatchObject({
      actor_id: t.admin.id,
      actor_email: t.admin.email,
      entity_id: offer.json().id,
      before: expect.objectContaining({ status: 'active' }),
      after: expect.objectContaining({ status: 'inactive' }),
    });
    const all = await t.call('GET', '/audit', { query: { page_size: '1' } });
    expect(all.json().items).toHaveLength(1);
    expect(all.json().total).toBeGreaterThanOrEqual(3);
    const one = await t.call('GET', '/audit', {
      query: { entity_type: 'offer', entity_id: offer.json().id, actor_id: t.admin.id },
    });
    expect(one.json().total).toBe(2);
    expect((await t.call('GET', '/audit', { query: { entity_type: 'users' } })).statusCode).toBe(
      400,
    );
  });
});
