import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BAD_CURSOR_MESSAGE, TOTAL_CAP } from '../../../contract/list.ts';
import { cappedCount, keysetOf, listPage } from '../../db/list-query.ts';
import { auditLog, campaigns, leads } from '../../db/schema.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { callAs } from '../../test/call-as.ts';
import { buildBuyer, buildOffer, buildPublisher, tokenFor } from '../../test/factories.ts';

// The list layer as a person meets it: Next walks every row once, in order, at any depth; a page
// number shows the same rows; the total says "10,000+" past the cap; a bad link is a clear 400.

let t: AdminTestContext;
let tied: string; // a publisher whose leads mostly share one timestamp
let big: string; // a publisher with more leads than TOTAL_CAP
let offer: string;
const N = 57;

type Item = { id: string };
type PageBody = {
  items: Item[];
  total: number;
  total_exact: boolean;
  page: number;
  next_cursor: string | null;
};

/** Every page of a list by its Next cursor; the ids in the order shown. */
async function walk(
  get: (q: Record<string, string>) => Promise<{ statusCode: number; json(): unknown }>,
  query: Record<string, string>,
): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  for (let page = 1; page < 100; page++) {
    const res = await get({ ...query, page: String(page), ...(after ? { after } : {}) });
    expect(res.statusCode).toBe(200);
    const body = res.json() as PageBody;
    ids.push(...body.items.map((i) => i.id));
    after = body.next_cursor;
    if (!after) return ids;
  }
  throw new Error('the walk did not end');
}

/** Every page of a list by its page number. */
async function byNumber(
  get: (q: Record<string, string>) => Promise<{ json(): unknown }>,
  query: Record<string, string>,
  pageSize: number,
): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const body = (await get({ ...query, page: String(page), page_size: String(pageSize) })).json();
    const items = (body as PageBody).items;
    ids.push(...items.map((i) => i.id));
    if (items.length < pageSize) return ids;
  }
}

const adminLeads = (q: Record<string, string>) => t.call('GET', '/leads', { query: q });

beforeAll(async () => {
  t = await setupAdminTest();
  tied = (await buildPublisher(t.db, { name: 'Tied Tina' })).id;
  big = (await buildPublisher(t.db, { name: 'Big Bea' })).id;
  offer = (await buildOffer(t.db, { title: 'Paging offer', payout: '5.00' })).id;
  const same = new Date('2023-05-05T05:05:05.123456Z');
  await t.db.insert(leads).values(
    Array.from({ length: N }, (_, i) => ({
      publisherId: tied,
      offerId: offer,
      // Two of three share one instant (and payouts repeat): only id orders them.
      payout: `${(i % 4) + 1}.00`,
      callDuration: i % 3,
      timestamp: i % 3 ? same : new Date(Date.UTC(2023, 4, 1, 0, 0, i)),
    })),
  );
  await t.db.execute(sql`
    insert into leads (publisher_id, offer_id, payout, timestamp)
    select ${big}::uuid, ${offer}::uuid, 1, timestamptz '2021-01-01' + g * interval '1 minute'
    from generate_series(1, ${TOTAL_CAP + 25}) g`);
});
afterAll(() => t.close());

describe('keyset pages (Next with next_cursor)', () => {
  it('walks leads with many equal timestamps: every row exactly once, in the list order', async () => {
    for (const [sort, order] of [
      ['timestamp', 'desc'],
      ['timestamp', 'asc'],
      ['payout', 'desc'],
      ['call_duration', 'asc'],
    ] as const) {
      const query = { publisher_id: tied, sort, order, page_size: '10' };
      const walked = await walk(adminLeads, query);
      expect(walked).toHaveLength(N);
      expect(new Set(walked).size).toBe(N);
      // The same order as one page holding them all, and as the page numbers.
      const all = (await adminLeads({ ...query, page_size: '200' })).json() as PageBody;
      expect(walked).toEqual(all.items.map((i) => i.id));
      expect(await byNumber(adminLeads, query, 10)).toEqual(walked);
    }
  });

  it('a page reached by number equals the same page reached by cursor', async () => {
    const query = { publisher_id: big, page_size: '25' };
    let after: string | null = null;
    for (let page = 1; page <= 4; page++) {
      const res = await adminLeads({ ...query, page: String(page), ...(after ? { after } : {}) });
      const viaCursor = res.json() as PageBody;
      const viaNumber = (await adminLeads({ ...query, page: String(page) })).json() as PageBody;
      expect(viaCursor.items).toEqual(viaNumber.items);
      expect(viaCursor.items).toHaveLength(25);
      after = viaCursor.next_cursor;
    }
  });

  it('the last page has no next cursor', async () => {
    const body = (
      await adminLeads({ publisher_id: tied, page: '6', page_size: '10' })
    ).json() as PageBody;
    expect(body.items).toHaveLength(N - 50);
    expect(body.next_cursor).toBeNull();
  });

  it('walks the publisher’s own leads, the audit log and nullable campaign sorts', async () => {
    const publisherToken = await t.tokenOf(
      (await t.db.query.users.findFirst({ where: (u, { eq }) => eq(u.id, tied) }))!,
    );
    const mine = (q: Record<string, string>) =>
      callAs(t.app, publisherToken, 'GET', '/api/v1/publisher/leads', { query: q });
    for (const sort of ['timestamp', 'status', 'offer']) {
      const walked = await walk(mine, { sort, order: 'asc', page_size: '7' });
      expect(new Set(walked).size).toBe(N);
      expect(await byNumber(mine, { sort, order: 'asc' }, 7)).toEqual(walked);
    }

    const at = new Date('2024-01-01T00:00:00Z');
    await t.db.insert(auditLog).values(
      Array.from({ length: 5 }, () => ({
        action: 'test.paging',
        entityType: 'lead',
        createdAt: at,
      })),
    );
    const auditList = (q: Record<string, string>) => t.call('GET', '/audit', { query: q });
    const audit = await walk(auditList, { page_size: '2' });
    expect(audit.length).toBeGreaterThanOrEqual(5);
    expect(new Set(audit).size).toBe(audit.length);
    expect(await byNumber(auditList, {}, 2)).toEqual(audit);

    const buyer = await buildBuyer(t.db);
    await t.db.insert(campaigns).values(
      Array.from({ length: 9 }, (_, i) => ({
        buyerId: buyer.id,
        name: `Campaign ${i}`,
        budget: i % 3 ? null : `${i}.00`,
      })),
    );
    const buyerToken = await tokenFor(t.db, t.config.jwtSecret, buyer);
    const theirs = (q: Record<string, string>) =>
      callAs(t.app, buyerToken, 'GET', '/api/v1/buyer/campaigns', { query: q });
    for (const order of ['asc', 'desc']) {
      const walked = await walk(theirs, { sort: 'budget', order, page_size: '2' });
      expect(walked).toHaveLength(9);
      expect(await byNumber(theirs, { sort: 'budget', order }, 2)).toEqual(walked);
    }
  });
});

describe('an exact total known up front (a maintained aggregate)', () => {
  it('reads the second half of the list from its far end: the same pages, in order', async () => {
    const where = eq(leads.publisherId, tied);
    const page = (n: number, order: 'asc' | 'desc', exactTotal?: () => Promise<number>) =>
      listPage({
        query: { page: n, page_size: 10 },
        keyset: keysetOf({ timestamp: leads.timestamp }, { sort: 'timestamp', order }, leads.id),
        rows: (w) =>
          t.db
            .select({ id: leads.id, sortKey: w.sortKey })
            .from(leads)
            .where(and(where, w.after))
            .orderBy(...w.orderBy)
            .limit(w.limit)
            .offset(w.offset),
        count: () => cappedCount(t.db, t.db.select({ one: sql`1` }).from(leads).where(where)),
        ...(exactTotal ? { exactTotal } : {}),
        toItem: (r) => r.id,
      });
    for (const order of ['desc', 'asc'] as const) {
      for (let n = 1; n <= 7; n++) {
        const plain = await page(n, order);
        const fromEnd = await page(n, order, async () => N);
        expect(fromEnd.items).toEqual(plain.items);
        expect(fromEnd.next_cursor).toEqual(plain.next_cursor);
        expect(fromEnd).toMatchObject({ total: N, total_exact: true });
      }
    }
  });
});

describe('totals', () => {
  it('are exact up to TOTAL_CAP, and TOTAL_CAP with total_exact false beyond', async () => {
    // An offer filter is one the maintained lead totals do not answer: the count is capped.
    const small = (await adminLeads({ offer_id: offer, publisher_id: tied })).json() as PageBody;
    expect(small).toMatchObject({ total: N, total_exact: true });
    const capped = (await adminLeads({ offer_id: offer })).json() as PageBody;
    expect(capped).toMatchObject({ total: TOTAL_CAP, total_exact: false });
    expect(capped.next_cursor).not.toBeNull();
    // Pages past the cap still answer, by number and by cursor.
    const far = (await adminLeads({ offer_id: offer, page: '404' })).json() as PageBody;
    expect(far.items).toHaveLength(N + TOTAL_CAP + 25 - 403 * 25);
    expect(far.next_cursor).toBeNull();
  });

  it('are exact past the cap where the maintained lead totals answer the filter', async () => {
    const mine = (await adminLeads({ publisher_id: big })).json() as PageBody;
    expect(mine).toMatchObject({ total: TOTAL_CAP + 25, total_exact: true });
    const last = (await adminLeads({ publisher_id: big, page: '401' })).json() as PageBody;
    expect(last.items).toHaveLength(25);
    expect(last.next_cursor).toBeNull();
  });
});

describe('a bad cursor', () => {
  it('is a 400 with a clear sentence, whether garbled, edited or from another sort', async () => {
    const first = (await adminLeads({ publisher_id: tied, page_size: '5' })).json() as PageBody;
    const good = first.next_cursor!;
    const [, , value, id] = JSON.parse(Buffer.from(good, 'base64url').toString());
    const forged = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString('base64url');
    for (const after of [
      'not-a-cursor',
      forged(['timestamp', 'desc', 'yesterday', id]),
      forged(['timestamp', 'desc', value, 'not-a-uuid']),
      forged(['timestamp', 'desc', null, id]),
      forged(['payout', 'desc', value, id]),
      forged(['timestamp', 'asc', value, id]),
    ]) {
      const res = await adminLeads({ publisher_id: tied, page: '2', after });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(BAD_CURSOR_MESSAGE);
    }
  });
});

describe('CSV export', () => {
  it('has the list’s rows in the list’s order', async () => {
    for (const sort of ['timestamp', 'payout']) {
      const query = { publisher_id: tied, sort, order: 'desc' };
      const csv = await t.call('GET', '/leads.csv', { query });
      const ids = csv.body
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(',')[0]);
      expect(ids).toEqual(await walk(adminLeads, { ...query, page_size: '20' }));
    }
  });
});
