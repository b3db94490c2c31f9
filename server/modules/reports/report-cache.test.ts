import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, dayIn } from '../../../contract/reports.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { createTestDatabase } from '../../test/build-test-app.ts';
import { buildOffer, buildPublisher } from '../../test/factories.ts';
import { gate } from '../../test/waiting.ts';
import {
  forgetKeptReports,
  keptAnswerSizes,
  keptOver,
  reportBlockCounts,
  reportCacheCounts,
} from './report-cache.ts';
import { singleBlocks } from './report-calendar.ts';
import { reportCsv } from './report-csv.ts';
import { foldNamesParts, namesStamp } from './report-names.ts';
import { warmReportBlocks } from './report-warm-up.ts';
import { buildReport, NETWORK_OWNER, type Report } from './reports.queries.ts';

/**
 * A report's past days kept in memory (server/modules/reports/report-cache.ts): asked again, the same
 * figures come without reading the rollups, and any change to a day of the range, a lead
 * written today, or a recount in a new zone is in the very next answer.
 */

let database: Database;
let drop: () => Promise<void>;
let db: DbOrTx;
const pubs: string[] = [];
let offerId: string;

beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
  db = database.db;
  for (let i = 0; i < 3; i++) pubs.push((await buildPublisher(db)).id);
  offerId = (await buildOffer(db)).id;
  // 60 leads over the last 40 days (none today), spread over the three publishers; every
  // other one carries a revenue, so each publisher has payable calls with and without one.
  await db.execute(sql`insert into leads (publisher_id, offer_id, payout, status, revenue, timestamp)
    select (array[${pubs[0]}::uuid, ${pubs[1]}::uuid, ${pubs[2]}::uuid])[1 + g % 3], ${offerId},
           5 + g, (array['approved','pending','rejected'])[1 + (g / 3) % 3],
           case when g % 2 = 0 then 12.5 + g end,
           date_trunc('day', now()) - (1 + g % 40) * interval '1 day' + interval '12 hours'
    from generate_series(1, 60) g`);
  forgetKeptReports();
});
afterAll(async () => {
  await database?.close();
  await drop?.();
});

const rows = async <T>(q: SQL): Promise<T[]> =>
  ((await db.execute(q)) as unknown as { rows: T[] }).rows;

/** The last 61 days grouped by publisher, network-wide, on `on` (this test's database by default). */
const byPublisher = (on: DbOrTx = db, days = 61, sort?: string) =>
  buildReport(on, {
    owner: NETWORK_OWNER,
    tz: 'UTC',
    query: {
      range: 'custom',
      from: addDays(dayIn('UTC', new Date()), 1 - days),
      to: dayIn('UTC', new Date()),
      group: 'publisher',
      compare: false,
      sort,
    },
  });

type Shown = {
  calls: number;
  payout: number;
  margin: number | null;
  payable_without_revenue: number;
  payout_without_revenue: number;
};

/**
 * Per publisher from the raw leads over the same days: calls, payable payout, the margin (the
 * revenue less the payout of the payable calls that carry one) and the payable calls without a
 * revenue with their payout.
 */
async function raw(days = 61): Promise<Record<string, Shown>> {
  const out: Record<string, Shown> = {};
  for (const r of await rows<{
    id: string;
    calls: number;
    payout: string;
    margin: string | null;
    without_count: number;
    without_payout: string;
  }>(sql`
    select publisher_id::text id, count(*)::int calls,
           coalesce(sum(payout) filter (where status = 'approved'), 0)::text payout,
           (sum(revenue) - coalesce(sum(payout) filter (where status = 'approved' and revenue is not null), 0))::text margin,
           count(*) filter (where status = 'approved' and revenue is null)::int without_count,
           coalesce(sum(payout) filter (where status = 'approved' and revenue is null), 0)::text without_payout
    from leads where timestamp >= date_trunc('day', now()) - ${days - 1} * interval '1 day'
    group by 1`)) {
    out[r.id] = {
      calls: r.calls,
      payout: Number(r.payout),
      margin: r.margin === null ? null : Number(r.margin),
      payable_without_revenue: r.without_count,
      payout_without_revenue: Number(r.without_payout),
    };
  }
  return out;
}
const shown = (r: Report) =>
  Object.fromEntries(
    r.rows.map((x) => [
      x.key,
      {
        calls: x.figures.calls,
        payout: x.figures.payout,
        margin: x.figures.margin,
        payable_without_revenue: x.figures.payable_without_revenue,
        payout_without_revenue: x.figures.payout_without_revenue,
      },
    ]),
  );

describe('a report over past days', () => {
  it('is read once, then answered from memory while nothing in its range changes', async () => {
    const before = { ...reportCacheCounts };
    const first = await byPublisher();
    expect(shown(first)).toEqual(await raw());
    const again = await byPublisher();
    expect(again.rows).toEqual(first.rows);
    expect(reportCacheCounts.misses - before.misses).toBe(1);
    expect(reportCacheCounts.hits - before.hits).toBe(1);
  });

  it('answers another range from the blocks it shares with one read before', async () => {
    forgetKeptReports();
    const first = { ...reportBlockCounts };
    await byPublisher(db, 61);
    const readFirst = reportBlockCounts.read - first.read;
    expect(readFirst).toBeGreaterThan(1);
    // 62 days end where 61 did: every block of 61 days but the first is one of 62's.
    const before = { ...reportBlockCounts };
    const longer = await byPublisher(db, 62);
    expect(shown(longer)).toEqual(await raw(62));
    expect(reportBlockCounts.kept - before.kept).toBeGreaterThan(0);
    expect(reportBlockCounts.read - before.read).toBeLessThan(readFirst);
  });

  it('reads each block once when several reports ask for it at once', async () => {
    forgetKeptReports();
    const before = { ...reportBlockCounts };
    const answers = await Promise.all([1, 2, 3, 4].map(() => byPublisher()));
    const expected = await raw();
    for (const a of answers) expect(shown(a)).toEqual(expected);
    const today = dayIn('UTC', new Date());
    const blocks = singleBlocks(addDays(today, -60), addDays(today, -1)).length;
    // Read once: the others waited for that read, or (asking later) found the block kept.
    expect(reportBlockCounts.read - before.read).toBe(blocks);
  });

  it('after the warm-up of a start, reads no block of a range of the last year', async () => {
    forgetKeptReports();
    const warmed = await warmReportBlocks(db);
    expect(warmed).toBeGreaterThan(0);
    const before = { ...reportBlockCounts };
    const r = await byPublisher(db, 61);
    expect(shown(r)).toEqual(await raw(61));
    expect(reportBlockCounts.read - before.read).toBe(0);
    expect(reportBlockCounts.kept - before.kept).toBeGreaterThan(0);
    // A second warm-up finds everything kept.
    expect(await warmReportBlocks(db)).toBe(0);
  });

  it('counts a lead written today at once, still without reading the past again', async () => {
    await byPublisher();
    const before = { ...reportCacheCounts };
    await db.execute(sql`insert into leads (publisher_id, offer_id, payout, status, timestamp)
      values (${pubs[0]}, ${offerId}, 40, 'approved', now())`);
    const r = await byPublisher();
    expect(shown(r)).toEqual(await raw());
    expect(reportCacheCounts.hits - before.hits).toBe(1);
    expect(reportCacheCounts.misses - before.misses).toBe(0);
  });

  it('reads the past again when a lead of a past day changes, and shows the change', async () => {
    const old = await byPublisher();
    const before = { ...reportCacheCounts };
    await db.execute(sql`update leads set status = 'approved', payout = 100
      where id = (select id from leads where status = 'pending' and timestamp < date_trunc('day', now())
                  and publisher_id = ${pubs[1]} order by timestamp limit 1)`);
    const r = await byPublisher();
    expect(shown(r)).toEqual(await raw());
    expect(shown(r)[pubs[1]!]!.payout).toBe(shown(old)[pubs[1]!]!.payout + 100);
    expect(reportCacheCounts.misses - before.misses).toBe(1);
  });

  it('moves the margin at once when a past payable call gets a revenue, sorted the same way', async () => {
    const old = shown(await byPublisher());
    const before = { ...reportCacheCounts };
    // A payable call of pubs[2] on a past day, without a revenue until now.
    const [call] = await rows<{ id: string; payout: string }>(sql`
      select id, payout::text from leads where publisher_id = ${pubs[2]} and status = 'approved'
        and revenue is null and timestamp < date_trunc('day', now()) order by timestamp limit 1`);
    await db.execute(sql`update leads set revenue = 100 where id = ${call!.id}`);
    const now = shown(await byPublisher());
    expect(now).toEqual(await raw());
    expect(reportCacheCounts.misses - before.misses).toBe(1);
    // $100 more revenue and its payout now in the margin; one payable call less without revenue.
    const payout = Number(call!.payout);
    const was = old[pubs[2]!]!;
    expect(now[pubs[2]!]).toEqual({
      ...was,
      margin: (was.margin ?? 0) + 100 - payout,
      payable_without_revenue: was.payable_without_revenue - 1,
      payout_without_revenue: was.payout_without_revenue - payout,
    });
    // Sorted by margin from the kept blocks: highest first, as the raw margins order them.
    const byMargin = await byPublisher(db, 61, 'margin');
    const want = Object.entries(await raw())
      .sort(([, a], [, b]) => (b.margin ?? -Infinity) - (a.margin ?? -Infinity))
      .map(([id]) => id);
    expect(byMargin.rows.map((r) => r.key)).toEqual(want);
  });

  it('keeps each database its own answers (a process may open several)', async () => {
    await byPublisher();
    const other = await createTestDatabase();
    try {
      const pub = await buildPublisher(other.database.db);
      const offer = await buildOffer(other.database.db);
      await other.database.db.execute(sql`insert into leads (publisher_id, offer_id, payout, status, timestamp)
        values (${pub.id}, ${offer.id}, 7, 'approved', date_trunc('day', now()) - interval '3 days')`);
      // The worst case: the other database's days carry the very stamps of this one's.
      await other.database.db.execute(sql`select fold_report_deltas()`);
      const [mark] = await rows<{ m: string }>(
        sql`select max(epoch)::text m from report_day_epochs`,
      );
      await other.database.db.execute(sql`update report_day_epochs set epoch = ${mark!.m}::bigint`);
      const r = await byPublisher(other.database.db);
      expect(shown(r)).toEqual({
        [pub.id]: {
          calls: 1,
          payout: 7,
          margin: null,
          payable_without_revenue: 1,
          payout_without_revenue: 7,
        },
      });
    } finally {
      await other.database.close();
      await other.drop();
    }
  });

  it('reads the past again after the days are recounted in another zone', async () => {
    await byPublisher();
    const before = { ...reportCacheCounts };
    await db.execute(sql`insert into settings (id, company_name, welcome_message, support_email)
      values (1, 'Acme', '', 'help@example.com') on conflict (id) do nothing`);
    await db.execute(sql`update settings set timezone = 'Asia/Tokyo' where id = 1`);
    await db.execute(sql`update settings set timezone = 'UTC' where id = 1`);
    const r = await byPublisher();
    expect(shown(r)).toEqual(await raw());
    expect(reportCacheCounts.misses - before.misses).toBe(1);
  });
});

describe('a whole report answer', () => {
  /** The last 20 days by publisher, compared with the 20 days before them. */
  const compared = () =>
    buildReport(db, {
      owner: NETWORK_OWNER,
      tz: 'UTC',
      query: {
        range: 'custom',
        from: addDays(dayIn('UTC', new Date()), -19),
        to: dayIn('UTC', new Date()),
        group: 'publisher',
        compare: true,
      },
    });

  it('is answered again as the same answer, and a renamed publisher shows in the next one', async () => {
    const first = await byPublisher();
    expect(await byPublisher()).toBe(first);
    await db.execute(sql`update users set name = 'Renamed Publisher' where id = ${pubs[0]}`);
    const renamed = await byPublisher();
    expect(renamed).not.toBe(first);
    expect(renamed.rows.find((r) => r.key === pubs[0])?.label).toBe('Renamed Publisher');
    expect(shown(renamed)).toEqual(shown(first));
    expect(await byPublisher()).toBe(renamed);
    // The CSV of each answer is made once, and names what its answer names.
    const csv = (r: Report) => reportCsv(r, { revenue: true });
    expect(csv(first)).toBe(csv(first));
    expect(csv(renamed).some((line) => line[0] === 'Renamed Publisher')).toBe(true);
    expect(csv(first).some((line) => line[0] === 'Renamed Publisher')).toBe(false);
  });

  it('shows a change to the previous period of a compared report in the next answer', async () => {
    const before = await compared();
    expect(await compared()).toBe(before);
    // A pending call of pubs[1] 30 days ago (the previous period) becomes payable at $100.
    const [call] = await rows<{ id: string }>(sql`
      select id from leads where publisher_id = ${pubs[1]} and status = 'pending'
        and timestamp >= date_trunc('day', now()) - interval '39 days'
        and timestamp < date_trunc('day', now()) - interval '19 days'
      order by timestamp limit 1`);
    expect(call).toBeDefined();
    await db.execute(
      sql`update leads set status = 'approved', payout = 100 where id = ${call!.id}`,
    );
    const after = await compared();
    const was = before.rows.find((r) => r.key === pubs[1])!;
    const now = after.rows.find((r) => r.key === pubs[1])!;
    expect(now.previous_figures!.payout).toBe(was.previous_figures!.payout + 100);
    expect(now.figures).toEqual(was.figures);
    expect(after.previous_totals!.payout).toBe(before.previous_totals!.payout + 100);
  });

  it('folds the names stamp parts without moving the stamp', async () => {
    await db.execute(sql`update users set name = 'Twice Renamed' where id = ${pubs[2]}`);
    const stamp = await namesStamp(db);
    await foldNamesParts(db);
    const [{ parts } = { parts: 0 }] = await rows<{ parts: number }>(
      sql`select count(*)::int as parts from report_names_parts`,
    );
    expect(parts).toBe(1);
    expect(await namesStamp(db)).toBe(stamp);
    const r = await byPublisher();
    expect(r.rows.find((x) => x.key === pubs[2])?.label).toBe('Twice Renamed');
  });

  // A name changed in a transaction moves the stamp only when it commits: a report asked in
  // between reads the old name under the old stamp, and the next one after the commit the new
  // name. (A sequence moved at once, so the old name could be kept under the new stamp.) Only
  // PostgreSQL runs a report beside an open transaction.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'keeps no old name under the stamp of a rename that commits later',
    async () => {
      await byPublisher();
      const renamed = gate();
      const commit = gate();
      const tx = database.db.transaction(async (t) => {
        await t.execute(sql`update users set name = 'Committed Later' where id = ${pubs[1]}`);
        renamed.open();
        await commit.p;
      });
      await renamed.p;
      const during = await byPublisher();
      expect(during.rows.find((x) => x.key === pubs[1])?.label).not.toBe('Committed Later');
      commit.open();
      await tx;
      const after = await byPublisher();
      expect(after.rows.find((x) => x.key === pubs[1])?.label).toBe('Committed Later');
    },
  );

  it('keeps at most 50,000 rows of answers, the most recent first', async () => {
    forgetKeptReports();
    const today = dayIn('UTC', new Date());
    const answer = (i: number) =>
      keptOver(db, {
        id: `test|${i}`,
        from: today,
        to: today,
        rows: (v: number[]) => v.length,
        compute: async () => Array.from({ length: 700 }, (_, j) => i + j),
      });
    for (let i = 0; i < 100; i++) await answer(i);
    const sizes = keptAnswerSizes();
    expect(sizes.rows).toBeLessThanOrEqual(50_000);
    expect(sizes.rows).toBe(sizes.answers * 700);
    expect(sizes.answers).toBe(Math.floor(50_000 / 700));
    // The latest is answered from memory, the first was let go.
    const hits = reportCacheCounts.hits;
    await answer(99);
    expect(reportCacheCounts.hits).toBe(hits + 1);
    await answer(0);
    expect(reportCacheCounts.hits).toBe(hits + 1);
  });
});
