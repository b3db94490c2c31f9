import { beforeAll, describe, expect, it } from 'vitest';
import { campaigns } from '../../db/schema.ts';
import { fileTestApp } from '../../test/build-test-app.ts';
import {
  buildAdmin,
  buildBuyer,
  buildPublisher,
  signedIn,
  tokenFor,
} from '../../test/factories.ts';

const t = fileTestApp(async (app) => {
  const a = await signedIn(app, buildBuyer(app.db));
  const b = await signedIn(app, buildBuyer(app.db));
  return { buyerA: a.token, buyerB: b.token, buyerAId: a.id };
});

const post = (token: string, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/buyer/campaigns',
    headers: { authorization: `Bearer ${token}` },
    payload: payload as object,
  });
const list = (token: string, query = '') =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/buyer/campaigns${query}`,
    headers: { authorization: `Bearer ${token}` },
  });

const full = {
  name: '  Spring Medicare push  ',
  goal: 'Inbound calls',
  target_audience: 'Seniors 65+',
  location: 'Florida',
  budget: 1500.5,
  start_date: '2025-03-01',
  end_date: '2025-03-31',
};

describe('POST /api/v1/buyer/campaigns', () => {
  it('creates a campaign and answers the row with budget as a number', async () => {
    const res = await post(t.buyerA, full);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    // Every field as sent, the name trimmed.
    expect(body).toMatchObject({ ...full, buyer_id: t.buyerAId, name: 'Spring Medicare push' });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(body.created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('turns a blank budget into null and accepts a campaign with only a name', async () => {
    const blank = await post(t.buyerA, { name: 'No budget', budget: '', start_date: '' });
    expect(blank.statusCode).toBe(201);
    expect(blank.json()).toMatchObject({ budget: null, start_date: null, goal: null });

    const bare = await post(t.buyerA, { name: 'Bare' });
    expect(bare.statusCode).toBe(201);
    expect(bare.json()).toMatchObject({ budget: null, end_date: null, location: null });
  });

  it('accepts a budget sent as a numeric string and a zero budget', async () => {
    const s = await post(t.buyerA, { name: 'String budget', budget: '250.75' });
    expect(s.statusCode).toBe(201);
    expect(s.json().budget).toBe(250.75);
    const z = await post(t.buyerA, { name: 'Zero', budget: 0 });
    expect(z.json().budget).toBe(0);
  });

  it('accepts the same day as start and end', async () => {
    const res = await post(t.buyerA, {
      name: 'One day',
      start_date: '2025-05-05',
      end_date: '2025-05-05',
    });
    expect(res.statusCode).toBe(201);
  });

  const invalid: [string, Record<string, unknown>, string, string][] = [
    ['a missing name', { budget: 10 }, 'name', 'Campaign name is required.'],
    ['a blank name', { name: '   ' }, 'name', 'Campaign name is required.'],
    ['a negative budget', { name: 'x', budget: -1 }, 'budget', 'Budget cannot be negative.'],
    [
      'three decimals',
      { name: 'x', budget: 10.125 },
      'budget',
      'Budget can have at most 2 decimals.',
    ],
    ['a text budget', { name: 'x', budget: 'lots' }, 'budget', 'Budget must be a number.'],
    [
      'a date in another format',
      { name: 'x', start_date: '03/01/2025' },
      'start_date',
      'Start date must be a real date in the form YYYY-MM-DD.',
    ],
    [
      'a day that does not exist',
      { name: 'x', end_date: '2025-02-30' },
      'end_date',
      'End date must be a real date in the form YYYY-MM-DD.',
    ],
    [
      'an end before the start',
      { name: 'x', start_date: '2025-03-10', end_date: '2025-03-09' },
      'end_date',
      'The end date cannot be before the start date.',
    ],
  ];
  for (const [what, payload, field, message] of invalid) {
    it(`refuses ${what} with 400 and a clear message`, async () => {
      const before = (await list(t.buyerA)).json().total;
      const res = await post(t.buyerA, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation_failed', message });
      expect(res.json().error.details[field]).toContain(message);
      expect((await list(t.buyerA)).json().total).toBe(before);
    });
  }
});

describe('GET /api/v1/buyer/campaigns', () => {
  it('lists own campaigns newest first', async () => {
    const res = await list(t.buyerA);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(6);
    expect(body.page).toBe(1);
    expect(body.items.map((c: { name: string }) => c.name)).toEqual([
      'One day',
      'Zero',
      'String budget',
      'Bare',
      'No budget',
      'Spring Medicare push',
    ]);
    expect(body.items.every((c: { buyer_id: string }) => c.buyer_id === t.buyerAId)).toBe(true);
  });

  it('pages the list', async () => {
    const res = await list(t.buyerA, '?page=2&page_size=4');
    expect(res.json()).toMatchObject({ total: 6, page: 2, page_size: 4 });
    expect(res.json().items).toHaveLength(2);
  });

  it("never shows another buyer's campaigns", async () => {
    const res = await list(t.buyerB);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ items: [], total: 0 });
    await post(t.buyerB, { name: 'B only' });
    const a = (await list(t.buyerA)).json();
    expect(a.items.map((c: { name: string }) => c.name)).not.toContain('B only');
    expect((await list(t.buyerB)).json().total).toBe(1);
  });
});

describe('sorting and searching GET /api/v1/buyer/campaigns', () => {
  let buyerC: string;
  let otherC: string;
  const names = (res: { json(): { items: { name: string }[] } }) =>
    res.json().items.map((c) => c.name);
  /** The names buyer C's list shows for this query string, in order. */
  const namesOf = async (query: string) => names(await list(buyerC, query));

  beforeAll(async () => {
    const c = await buildBuyer(t.db);
    const other = await buildBuyer(t.db);
    buyerC = await tokenFor(t.db, t.config.jwtSecret, c);
    otherC = await tokenFor(t.db, t.config.jwtSecret, other);
    const row = (name: string, over: Partial<typeof campaigns.$inferInsert>) => ({
      buyerId: c.id,
      name,
      ...over,
    });
    await t.db.insert(campaigns).values([
      row('beta', {
        goal: 'Brand calls',
        location: 'Texas',
        budget: '500.00',
        startDate: '2025-02-01',
        endDate: '2025-06-30',
        createdAt: new Date('2025-01-02T00:00:00Z'),
      }),
      row('Alpha', {
        goal: 'Inbound sales',
        targetAudience: 'Homeowners',
        budget: '1500.00',
        startDate: '2025-01-15',
        createdAt: new Date('2025-01-01T00:00:00Z'),
      }),
      row('Gamma', {
        location: 'Florida keys',
        budget: null,
        endDate: '2025-03-31',
        createdAt: new Date('2025-01-03T00:00:00Z'),
      }),
      row('Delta', {
        goal: 'Texas retirees',
        budget: '500.00',
        createdAt: new Date('2025-01-04T00:00:00Z'),
      }),
    ]);
    await t.db.insert(campaigns).values({ buyerId: other.id, name: 'Aardvark Texas' });
  });

  it('is newest first by default and oldest first with order=asc', async () => {
    expect(names(await list(buyerC))).toEqual(['Delta', 'Gamma', 'beta', 'Alpha']);
    expect(names(await list(buyerC, '?order=asc'))).toEqual(['Alpha', 'beta', 'Gamma', 'Delta']);
  });

  it('sorts by name without regard to case, both ways', async () => {
    expect(await namesOf('?sort=name&order=asc')).toEqual(['Alpha', 'beta', 'Delta', 'Gamma']);
    expect(await namesOf('?sort=name&order=desc')).toEqual(['Gamma', 'Delta', 'beta', 'Alpha']);
  });

  it('puts campaigns without a budget or date last, whichever the direction', async () => {
    const budgets = async (order: string) =>
      (await list(buyerC, `?sort=budget&order=${order}`))
        .json()
        .items.map((c: { budget: number | null }) => c.budget);
    expect(await budgets('asc')).toEqual([500, 500, 1500, null]);
    expect(await budgets('desc')).toEqual([1500, 500, 500, null]);
    const byStart = await namesOf('?sort=start_date&order=asc');
    expect(byStart.slice(0, 2)).toEqual(['Alpha', 'beta']);
    // No start date: Gamma and Delta, after the dated ones.
    expect(byStart.slice(2).sort()).toEqual(['Delta', 'Gamma']);
    expect((await namesOf('?sort=start_date&order=desc')).slice(0, 2)).toEqual(['beta', 'Alpha']);
    expect((await namesOf('?sort=end_date&order=desc')).slice(0, 2)).toEqual(['beta', 'Gamma']);
    expect(await namesOf('?sort=goal&order=asc')).toEqual(['beta', 'Alpha', 'Delta', 'Gamma']);
  });

  it('keeps equal budgets in the same order across pages', async () => {
    const all = (await list(buyerC, '?sort=budget&order=asc')).json().items;
    const p1 = (await list(buyerC, '?sort=budget&order=asc&page_size=1&page=1')).json().items;
    const p2 = (await list(buyerC, '?sort=budget&order=asc&page_size=1&page=2')).json().items;
    expect([p1[0].id, p2[0].id]).toEqual([all[0].id, all[1].id]);
  });

  it('searches name, goal, audience and location in any case, with the total of the matches', async () => {
    const texas = await list(buyerC, '?q=TEXAS&sort=name&order=asc');
    expect(texas.json()).toMatchObject({ total: 2, page: 1 });
    expect(names(texas)).toEqual(['beta', 'Delta']);
    expect(names(await list(buyerC, '?q=homeowners'))).toEqual(['Alpha']);
    expect(names(await list(buyerC, '?q=keys'))).toEqual(['Gamma']);
    expect(names(await list(buyerC, '?q=gam'))).toEqual(['Gamma']);
    expect((await list(buyerC, '?q=%20')).json().total).toBe(4);
    expect((await list(buyerC, '?q=_')).json().total).toBe(0);
    expect((await list(buyerC, '?q=a%00')).statusCode).toBe(400);
    // Another buyer's campaign matches the words but is never found.
    expect(names(await list(buyerC, '?q=aardvark'))).toEqual([]);
    expect(names(await list(otherC, '?q=texas'))).toEqual(['Aardvark Texas']);
  });

  it.each([
    ['?sort=buyer_id', 'sort', 'Sort by one of: created_at, name, goal'],
    ['?sort=', 'sort', 'Sort by one of:'],
    ['?order=newest', 'order', 'Order must be asc or desc.'],
    [`?q=${'a'.repeat(201)}`, 'q', 'The search can be at most 200 characters.'],
  ])('refuses %s with 400 and a clear message', async (query, field, message) => {
    const res = await list(buyerC, query);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
    expect(res.json().error.message).toContain(message);
    expect(res.json().error.details[field][0]).toContain(message);
  });
});

describe('who may call the buyer API', () => {
  it('answers 401 without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/buyer/campaigns' });
    expect(res.statusCode).toBe(401);
  });

  it('refuses publisher and admin tokens with 403 and creates nothing', async () => {
    const pub = await tokenFor(t.db, t.config.jwtSecret, await buildPublisher(t.db));
    const adm = await tokenFor(t.db, t.config.jwtSecret, await buildAdmin(t.db));
    for (const token of [pub, adm]) {
      expect((await list(token)).statusCode).toBe(403);
      const res = await post(token, { name: 'Sneaky' });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe('This area is for buyers only.');
    }
  });

  it('refuses a blocked buyer', async () => {
    const blocked = await buildBuyer(t.db, { status: 'blocked' });
    const token = await tokenFor(t.db, t.config.jwtSecret, blocked);
    expect((await post(token, { name: 'Blocked' })).statusCode).toBe(403);
  });
});

describe('PATCH /api/v1/buyer/campaigns/:id (issue 34: a buyer edits budget and dates)', () => {
  const patch = (token: string, id: string, payload: unknown) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/v1/buyer/campaigns/${id}`,
      headers: { authorization: `Bearer ${token}` },
      payload: payload as object,
    });
  let id: string;
  beforeAll(async () => {
    const res = await post(t.buyerA, {
      name: 'Editable',
      budget: 100,
      start_date: '2026-09-03',
      end_date: '2026-09-15',
    });
    id = res.json().id;
  });

  it('changes the budget and dates and the list shows them', async () => {
    const res = await patch(t.buyerA, id, {
      budget: '2500.50',
      start_date: '2026-10-01',
      end_date: '2026-10-31',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Editable',
      budget: 2500.5,
      start_date: '2026-10-01',
      end_date: '2026-10-31',
    });
    const shown = (await list(t.buyerA, '?q=Editable')).json().items[0];
    expect(shown).toMatchObject({ budget: 2500.5, start_date: '2026-10-01' });
  });

  it('keeps what is left out and clears a blank budget', async () => {
    const res = await patch(t.buyerA, id, { budget: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ budget: null, start_date: '2026-10-01' });
  });

  it('refuses a negative budget with a clear 400 and stores nothing', async () => {
    for (const budget of [-500, '-500']) {
      const res = await patch(t.buyerA, id, { budget });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'validation_failed',
        message: 'Budget cannot be negative.',
      });
    }
    const created = await post(t.buyerA, { name: 'Negative', budget: '-500' });
    expect(created.statusCode).toBe(400);
    expect(created.json().error.message).toBe('Budget cannot be negative.');
    expect((await list(t.buyerA, '?q=Editable')).json().items[0].budget).toBeNull();
  });

  it('refuses an end date before the stored start date', async () => {
    const res = await patch(t.buyerA, id, { end_date: '2026-09-30' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      message: 'The end date cannot be before the start date.',
      details: { end_date: ['The end date cannot be before the start date.'] },
    });
  });

  it('refuses an empty change and a field a buyer may not edit', async () => {
    const empty = await patch(t.buyerA, id, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe(
      'Send the budget, the start date or the end date to change.',
    );
    expect((await patch(t.buyerA, id, { name: 'Renamed' })).statusCode).toBe(400);
  });

  it("answers 404 for another buyer's campaign and leaves it as it was", async () => {
    const res = await patch(t.buyerB, id, { budget: 1 });
    expect(res.statusCode).toBe(404);
    const mine = (await list(t.buyerA, '?q=Editable')).json().items[0];
    expect(mine.budget).toBeNull();
    const unknown = await patch(t.buyerA, '00000000-0000-4000-8000-000000000000', { budget: 1 });
    expect(unknown.statusCode).toBe(404);
  });
});
