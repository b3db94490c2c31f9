import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReportFigures } from '../../../contract/reports.ts';
import { addDays, dayIn } from '../../../contract/reports.ts';
import { type Database, rowsOf } from '../../db/client.ts';
import { amountCents, cents, centsMoney } from '../../db/money.ts';
import { createTestDatabase } from '../../test/build-test-app.ts';
import { buildOffer, buildPublisher } from '../../test/factories.ts';
import { forgetKeptReports } from './report-cache.ts';
import type { ReportGroup } from './report-figures.ts';
import { buildReport, NETWORK_OWNER } from './reports.queries.ts';

/**
 * Issue 28 item 3: a report's money is integer cents from the database to the JSON. Amounts a
 * float sum gets wrong (0.10 + 0.20, sevens) over past days (kept blocks) and today (rollups):
 * every row's and the totals' amounts have at most two decimals, the rows add up to the totals
 * cent for cent, and the totals are the raw leads' sums.
 */

let database: Database;
let drop: () => Promise<void>;
const MONEY = ['payout', 'revenue', 'margin', 'payout_without_revenue'] as const;

beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
  const db = database.db;
  const pubs = [(await buildPublisher(db)).id, (await buildPublisher(db)).id];
  const offers = [
    (await buildOffer(db, { vertical: 'Solar' })).id,
    (await buildOffer(db, { vertical: 'Debt' })).id,
  ];
  // 120 leads over the last 10 days and today: payouts of 0.10, 0.20 and 0.07, revenues of
  // 0.30 and 0.17 on two calls of three.
  await db.execute(sql`insert into leads (publisher_id, offer_id, payout, status, revenue, state, timestamp)
    select (array[${pubs[0]}::uuid, ${pubs[1]}::uuid])[1 + g % 2],
           (array[${offers[0]}::uuid, ${offers[1]}::uuid])[1 + (g / 2) % 2],
           (array[0.10, 0.20, 0.07])[1 + g % 3]::numeric,
           (array['approved','pending','approved','rejected'])[1 + g % 4],
           case when g % 3 <> 0 then (array[0.30, 0.17])[1 + g % 2]::numeric end,
           (array['NY', 'CA', null])[1 + g % 3],
           date_trunc('day', now()) - (g % 11) * interval '1 day' + interval '1 minute'
    from generate_series(1, 120) g`);
  forgetKeptReports();
});
afterAll(async () => {
  await database?.close();
  await drop?.();
});

/** A JSON amount is whole cents: what money.ts makes of it is the very same number. */
const isWholeCents = (v: number) => centsMoney(amountCents(v)) === v;

const rowCents = (figures: AdminReportFigures[], k: (typeof MONEY)[number]) =>
  figures.reduce((n, f) => n + amountCents(f[k] ?? 0), 0n);

describe('report money in integer cents', () => {
  it.each<ReportGroup>(['publisher', 'offer', 'state', 'vertical', 'day'])(
    'rows grouped by %s add up to the totals, cent for cent',
    async (group) => {
      const today = dayIn('UTC', new Date());
      const report = await buildReport(database.db, {
        owner: NETWORK_OWNER,
        tz: 'UTC',
        query: { range: 'custom', from: addDays(today, -10), to: today, group, compare: false },
      });
      const lines = report.rows.map((r) => r.figures);
      expect(lines.length).toBeGreaterThan(1);
      for (const f of [...lines, report.totals]) {
        for (const k of MONEY)
          if (f[k] !== null) expect(isWholeCents(f[k]), `${k} ${f[k]}`).toBe(true);
      }
      for (const k of ['payout', 'payout_without_revenue'] as const) {
        expect(rowCents(lines, k), k).toBe(amountCents(report.totals[k]));
      }
      // Rows without a revenue have no margin: the others' margins add up to the totals'.
      expect(rowCents(lines, 'revenue')).toBe(amountCents(report.totals.revenue ?? 0));
      expect(rowCents(lines, 'margin')).toBe(amountCents(report.totals.margin ?? 0));
      const [raw] = await rowsOf<{ payout: string; revenue: string; rpay: string }>(
        database.db,
        sql`select coalesce(sum(payout) filter (where status = 'approved'), 0)::text as payout,
        coalesce(sum(revenue), 0)::text as revenue,
        coalesce(sum(payout) filter (where status = 'approved' and revenue is not null), 0)::text as rpay
        from leads`,
      );
      expect(amountCents(report.totals.payout)).toBe(cents(raw!.payout));
      expect(amountCents(report.totals.revenue ?? 0)).toBe(cents(raw!.revenue));
      expect(amountCents(report.totals.margin ?? 0)).toBe(cents(raw!.revenue) - cents(raw!.rpay));
    },
  );
});
