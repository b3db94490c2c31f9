import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeadListQuery } from '../../../contract/leads.ts';
import { PublisherLeadsQuery } from '../../../contract/publisher.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { SEEK_FROM } from '../../db/list-query.ts';
import { ensureSettings } from '../../db/settings.ts';
import { createTestDatabase } from '../../test/build-test-app.ts';
import { buildOffer, buildPublisher } from '../../test/factories.ts';
import { prng, sqlRows } from '../../test/seeded.ts';
import { seekLeadDays } from './lead-totals.ts';
import { listLeads } from './leads.service.ts';
import { listPublisherLeads } from './publisher-history.service.ts';

/**
 * A deep page number of a leads list sorted by time starts at its day, counted from the day
 * totals (listPage's seek), instead of an OFFSET over every lead before it. The page must hold
 * exactly the rows a plain OFFSET gives, in a zone with its own midnights, with leads on those
 * midnights and ties of the same instant, in both directions and on the far-end (reversed) read.
 */

let database: Database;
let drop: () => Promise<void>;
let db: DbOrTx;
let big: string;

const ZONE = 'America/New_York';
const PAGE = 100;

beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
  db = database.db;
  await ensureSettings(db);
  await db.execute(sql`update settings set timezone = ${ZONE} where id = 1`);
  big = (await buildPublisher(db)).id;
  const other = (await buildPublisher(db)).id;
  const offers = [(await buildOffer(db)).id, (await buildOffer(db)).id];
  const rand = prng(28);
  const values = [];
  // 6,000 leads over 12 days of the zone: a third on a zone midnight (some the same instant),
  // the rest spread through the day.
  for (let i = 0; i < 6000; i++) {
    const day = Math.floor(rand() * 12);
    const midnight = Date.UTC(2026, 0, 1 + day, 5); // 00:00 in New York (EST, no change of time in January)
    const at = rand() < 0.33 ? midnight : midnight + Math.floor(rand() * 86_400_000);
    const status = ['approved', 'pending', 'rejected'][Math.floor(rand() * 3)];
    values.push(
      sql`(${rand() < 0.6 ? big : other}, ${offers[i % 2]}, 10, ${status}, ${new Date(at).toISOString()}::timestamptz)`,
    );
  }
  await db.execute(
    sql`insert into leads (publisher_id, offer_id, payout, status, timestamp) values ${sql.join(values, sql`, `)}`,
  );
});
afterAll(async () => {
  await database?.close();
  await drop?.();
});

/** The ids of one page as a plain OFFSET reads it (the truth the seek must match). */
async function offsetPage(where: ReturnType<typeof sql>, dir: 'asc' | 'desc', offset: number) {
  const d = sql.raw(dir);
  const rows = await sqlRows<{ id: string }>(
    db,
    sql`select id from leads where ${where} order by timestamp ${d}, id ${d} limit ${PAGE} offset ${offset}`,
  );
  return rows.map((r) => r.id);
}

async function countWhere(where: ReturnType<typeof sql>): Promise<number> {
  const [row] = await sqlRows<{ n: number }>(
    db,
    sql`select count(*)::int n from leads where ${where}`,
  );
  return row?.n ?? 0;
}

describe('deep pages of the leads lists', () => {
  const cases = [
    { name: 'every lead', filter: {}, where: sql`true` },
    { name: 'approved', filter: { status: 'approved' }, where: sql`status = 'approved'` },
    {
      name: 'a range of whole days',
      filter: { from: '2026-01-03', to: '2026-01-10' },
      where: sql`timestamp >= '2026-01-03T05:00Z' and timestamp < '2026-01-11T05:00Z'`,
    },
  ] as const;
  for (const c of cases) {
    for (const order of ['desc', 'asc'] as const) {
      it(`${c.name}, ${order}: each deep page equals the OFFSET's, near and far end`, async () => {
        const n = await countWhere(c.where);
        const pages = Math.ceil(n / PAGE);
        const deep = Array.from({ length: pages }, (_, i) => i + 1).filter(
          (p) => (p - 1) * PAGE >= SEEK_FROM,
        );
        expect(deep.length).toBeGreaterThan(2);
        for (const page of deep) {
          const query = LeadListQuery.parse({ ...c.filter, order, page, page_size: PAGE });
          const got = (await listLeads({ db, query })).items.map((l) => l.id);
          expect(got, `page ${page}`).toEqual(await offsetPage(c.where, order, (page - 1) * PAGE));
        }
        // The seek really skips: the first deep page starts past whole days, not at an OFFSET.
        const seek = await seekLeadDays(db, c.filter, SEEK_FROM, order);
        expect(seek?.skipped).toBeGreaterThan(0);
        expect(seek?.skipped).toBeLessThanOrEqual(SEEK_FROM);
      });
    }
  }

  it("the publisher's own list: deep pages equal the OFFSET's", async () => {
    const where = sql`publisher_id = ${big}`;
    const n = await countWhere(where);
    for (const order of ['desc', 'asc'] as const) {
      for (let page = SEEK_FROM / PAGE + 1; (page - 1) * PAGE < n; page++) {
        const query = PublisherLeadsQuery.parse({ order, page, page_size: PAGE });
        const got = (await listPublisherLeads({ db, publisherId: big, query })).items.map(
          (l) => l.id,
        );
        expect(got, `${order} page ${page}`).toEqual(
          await offsetPage(where, order, (page - 1) * PAGE),
        );
      }
    }
    expect(
      (await seekLeadDays(db, { publisher_id: big }, SEEK_FROM, 'desc'))?.skipped,
    ).toBeGreaterThan(0);
  });

  it('filters the day totals cannot answer read by OFFSET, with the same rows', async () => {
    expect(
      await seekLeadDays(db, { publisher_id: big, status: 'approved' }, SEEK_FROM, 'desc'),
    ).toBeUndefined();
    expect(
      await seekLeadDays(db, { from: '2026-03-03T12:00:00Z' }, SEEK_FROM, 'desc'),
    ).toBeUndefined();
    const query = LeadListQuery.parse({ sort: 'payout', page: 12, page_size: PAGE });
    const got = (await listLeads({ db, query })).items;
    expect(got).toHaveLength(PAGE);
  });
});
