import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads, offerApplications, payouts } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { buildOffer, buildPublisher, type TestUser, tokenFor } from '../../test/factories.ts';

// Sorting, ordering and search of the publisher's lists (offers, leads, payouts, IOs).

let t: TestApp;
let erin: TestUser;
let erinToken: string;
let otherToken: string;

const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  t = await buildTestApp();
  erin = await buildPublisher(t.db, { name: 'Erin' });
  const other = await buildPublisher(t.db);
  erinToken = await tokenFor(t.db, t.config.jwtSecret, erin);
  otherToken = await tokenFor(t.db, t.config.jwtSecret, other);

  // Offers: only this file's offers exist, so the whole list is known.
  const [zebra, apple, mango] = await Promise.all([
    buildOffer(t.db, {
      title: 'zebra Solar',
      vertical: 'Solar',
      payout: '30.00',
      createdAt: at('2025-01-03T00:00:00Z'),
    }),
    buildOffer(t.db, {
      title: 'Apple Medicare',
      vertical: 'medicare',
      payout: '55.50',
      createdAt: at('2025-01-01T00:00:00Z'),
    }),
    buildOffer(t.db, {
      title: 'Mango Debt',
      vertical: 'Debt',
      payout: '30.00',
      createdAt: at('2025-01-02T00:00:00Z'),
    }),
  ]);
  await buildOffer(t.db, { title: 'Hidden inactive', status: 'inactive' });

  await t.db
    .insert(leads)
    .values([
      lead(zebra!.id, '12.00', 'pending', 4, '2025-02-01T10:00:00Z'),
      lead(apple!.id, '40.00', 'approved', 9, '2025-02-03T10:00:00Z'),
      lead(mango!.id, '12.00', 'rejected', 1, '2025-02-02T10:00:00Z'),
      lead(apple!.id, '7.50', 'approved', 15, '2025-02-04T10:00:00Z'),
    ]);
  // Another publisher's lead with the highest payout must never show up.
  await t.db.insert(leads).values({
    ...lead(zebra!.id, '999.00', 'approved', 99, '2025-02-05T10:00:00Z'),
    publisherId: other.id,
  });

  await t.db.insert(payouts).values([
    { publisherId: erin.id, amount: '100.00', date: at('2025-03-01T00:00:00Z') },
    { publisherId: erin.id, amount: '20.00', date: at('2025-03-03T00:00:00Z') },
    { publisherId: erin.id, amount: '60.00', date: at('2025-03-02T00:00:00Z') },
  ]);

  await t.db
    .insert(offerApplications)
    .values([
      io(zebra!.id, '2025-04-02T00:00:00Z'),
      io(apple!.id, '2025-04-01T00:00:00Z'),
      io(mango!.id, '2025-04-03T00:00:00Z'),
    ]);

  function lead(
    offerId: string,
    payout: string,
    status: 'pending' | 'approved' | 'rejected',
    callDuration: number,
    timestamp: string,
  ) {
    return {
      publisherId: erin.id,
      offerId,
      payout,
      status,
      callDuration,
      timestamp: at(timestamp),
    };
  }
  function io(offerId: string, createdAt: string) {
    return {
      offerId,
      publisherId: erin.id,
      status: 'approved' as const,
      ioDocumentUrl: `io_documents/${erin.id}/io-${offerId}.pdf`,
      createdAt: at(createdAt),
    };
  }
});
afterAll(() => t.close());

const get = (url: string, token = erinToken) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/publisher${url}`,
    headers: { authorization: `Bearer ${token}` },
  });
const pick = async <K extends string>(url: string, key: K) => {
  const res = await get(url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items.map((i: Record<K, unknown>) => i[key]);
};
/** The three offers' titles in alphabetical order (case ignored). */
const TITLES_AZ = ['Apple Medicare', 'Mango Debt', 'zebra Solar'];
/** The list sorted by `sort` both ways: `ascending` in asc order, its reverse in desc order. */
const sortsBothWays = async (list: string, sort: string, key: string, ascending: unknown[]) => {
  expect(await pick(`${list}?sort=${sort}&order=asc`, key)).toEqual(ascending);
  expect(await pick(`${list}?sort=${sort}&order=desc`, key)).toEqual([...ascending].reverse());
};

describe('offers', () => {
  it('sorts newest first by default and by payout, title and vertical both ways', async () => {
    expect(await pick('/offers', 'title')).toEqual(['zebra Solar', 'Mango Debt', 'Apple Medicare']);
    expect(await pick('/offers?order=asc', 'title')).toEqual([
      'Apple Medicare',
      'Mango Debt',
      'zebra Solar',
    ]);
    // Title ignores case: 'zebra' goes after 'Mango'.
    await sortsBothWays('/offers', 'title', 'title', TITLES_AZ);
    await sortsBothWays('/offers', 'payout', 'payout', [30, 30, 55.5]);
    expect(await pick('/offers?sort=vertical&order=asc', 'vertical')).toEqual([
      'Debt',
      'medicare',
      'Solar',
    ]);
  });

  it('keeps equal values in a stable order across pages', async () => {
    const all = await pick('/offers?sort=payout&order=asc', 'id');
    const first = await pick('/offers?sort=payout&order=asc&page=1&page_size=1', 'id');
    const second = await pick('/offers?sort=payout&order=asc&page=2&page_size=1', 'id');
    expect([...first, ...second]).toEqual(all.slice(0, 2));
    expect(first[0]).not.toBe(second[0]);
  });

  it('searches and sorts together', async () => {
    const res = await get('/offers?search=L&sort=payout&order=desc');
    expect(res.json()).toMatchObject({ total: 2 });
    expect(res.json().items.map((o: { title: string }) => o.title)).toEqual([
      'Apple Medicare',
      'zebra Solar',
    ]);
    expect((await get('/offers?search=medi')).json().total).toBe(1);
  });
});

describe('leads', () => {
  it('sorts by timestamp, payout, duration, status and offer both ways', async () => {
    expect(await pick('/leads', 'call_duration')).toEqual([15, 9, 1, 4]);
    expect(await pick('/leads?sort=timestamp&order=asc', 'call_duration')).toEqual([4, 1, 9, 15]);
    await sortsBothWays('/leads', 'payout', 'payout', [7.5, 12, 12, 40]);
    expect(await pick('/leads?sort=call_duration&order=asc', 'call_duration')).toEqual([
      1, 4, 9, 15,
    ]);
    expect(await pick('/leads?sort=call_duration', 'call_duration')).toEqual([15, 9, 4, 1]);
    await sortsBothWays('/leads', 'status', 'status', [
      'approved',
      'approved',
      'pending',
      'rejected',
    ]);
    await sortsBothWays('/leads', 'offer', 'offer_title', [
      'Apple Medicare',
      'Apple Medicare',
      'Mango Debt',
      'zebra Solar',
    ]);
  });

  it('walks the leads sorted by offer page by page with the cursor, both ways', async () => {
    // Each page after a cursor reads only the offers from the cursor's title on: a walk of
    // one-lead pages must still meet every lead once, in the order of the whole list.
    for (const order of ['asc', 'desc']) {
      const whole = await pick(`/leads?sort=offer&order=${order}`, 'id');
      const walked: unknown[] = [];
      let after: string | null = null;
      do {
        const cursor: string = after ? `&after=${encodeURIComponent(after)}` : '';
        const res = await get(`/leads?sort=offer&order=${order}&page_size=1${cursor}`);
        expect(res.statusCode, res.body).toBe(200);
        walked.push(...res.json().items.map((i: { id: string }) => i.id));
        after = res.json().next_cursor;
      } while (after && walked.length <= whole.length);
      expect(walked).toEqual(whole);
    }
  });

  it('sorts the whole list before paging, with filters', async () => {
    const top = (await get('/leads?sort=payout&order=desc&page_size=1')).json();
    expect(top).toMatchObject({ total: 4, page: 1, page_size: 1 });
    expect(top.items.map((l: { payout: number }) => l.payout)).toEqual([40]);
    const last = (await get('/leads?sort=payout&order=desc&page_size=1&page=4')).json();
    expect(last.items.map((l: { payout: number }) => l.payout)).toEqual([7.5]);
    expect(await pick('/leads?status=approved&sort=payout&order=asc', 'payout')).toEqual([7.5, 40]);
    // Two leads pay 12.00: each shows exactly once across pages.
    const ids = [
      ...(await pick('/leads?sort=payout&page_size=2&page=1', 'id')),
      ...(await pick('/leads?sort=payout&page_size=2&page=2', 'id')),
    ];
    expect(new Set(ids).size).toBe(4);
  });

  it("never sorts another publisher's leads in", async () => {
    expect(await pick('/leads?sort=payout&order=desc', 'payout')).not.toContain(999);
    const theirs = (await get('/leads?sort=payout', otherToken)).json();
    expect(theirs.items.map((l: { payout: number }) => l.payout)).toEqual([999]);
  });
});

describe('payouts', () => {
  it('sorts by date and amount both ways', async () => {
    expect(await pick('/payouts', 'amount')).toEqual([20, 60, 100]);
    expect(await pick('/payouts?order=asc', 'amount')).toEqual([100, 60, 20]);
    await sortsBothWays('/payouts', 'amount', 'amount', [20, 60, 100]);
  });
});

describe('campaign IOs', () => {
  it('sorts by application date and offer title both ways', async () => {
    expect(await pick('/ios', 'offer_title')).toEqual([
      'Mango Debt',
      'zebra Solar',
      'Apple Medicare',
    ]);
    expect(await pick('/ios?sort=created_at&order=asc', 'offer_title')).toEqual([
      'Apple Medicare',
      'zebra Solar',
      'Mango Debt',
    ]);
    await sortsBothWays('/ios', 'offer', 'offer_title', TITLES_AZ);
  });

  it('searches by offer title, any case, with the total of the matches', async () => {
    const res = await get('/ios?q=DEBT');
    expect(res.json()).toMatchObject({ total: 1, page: 1 });
    expect(res.json().items.map((i: { offer_title: string }) => i.offer_title)).toEqual([
      'Mango Debt',
    ]);
    // A blank search is no search; % is a character, not a wildcard.
    expect((await get('/ios?q=%20%20')).json().total).toBe(3);
    expect((await get('/ios?q=%25')).json().total).toBe(0);
    expect((await get('/ios?q=solar', otherToken)).json().total).toBe(0);
    // A NUL byte is refused before it reaches the database.
    expect((await get('/ios?q=a%00')).statusCode).toBe(400);
  });
});

describe('bad sort, order and search values', () => {
  it.each([
    ['/offers?sort=script_instructions', 'sort', 'created_at, payout, title, vertical'],
    ['/leads?sort=publisher_id', 'sort', 'timestamp, payout, call_duration, status, offer'],
    ['/payouts?sort=notes', 'sort', 'date, amount'],
    ['/ios?sort=file', 'sort', 'created_at, offer'],
    ['/leads?order=up', 'order', 'asc or desc'],
    ['/payouts?order=DESC', 'order', 'asc or desc'],
    [`/ios?q=${'x'.repeat(201)}`, 'q', 'at most 200 characters'],
  ])('%s answers 400 naming the allowed values', async (url, field, allowed) => {
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('validation_failed');
    expect(error.message).toContain(allowed);
    expect(error.details[field]?.[0]).toContain(allowed);
  });
});
