import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReport, PublisherReport } from '../../../contract/reports.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';
import { prng, sqlRows } from '../../test/seeded.ts';
import { blockRuns, blocksOfLastYear, singleBlocks } from './report-calendar.ts';
import { firstByFigure } from './reports.queries.ts';

/**
 * Reports (issue 15) against the same figures computed from the raw leads by plain SQL, for
 * random leads around the DST changes of America/New_York (2026-03-08, 2026-11-01), month ends
 * and local midnights, in three zones (whole-hour, DST and +05:45), after random inserts,
 * updates and deletes made both before and after each change of the network's zone.
 */

let t: AdminTestContext;
const pubs: TestUser[] = [];
const offerIds: string[] = [];
let pubTokens: string[] = [];

beforeAll(async () => {
  t = await setupAdminTest();
  for (let i = 0; i < 3; i++) pubs.push(await buildPublisher(t.db));
  const verticals = ['Insurance', 'Insurance', 'Solar', 'Debt'];
  for (const vertical of verticals) offerIds.push((await buildOffer(t.db, { vertical })).id);
  pubTokens = await Promise.all(pubs.map((p) => t.tokenOf(p)));
});
afterAll(() => t.close());

const rows = <T>(q: SQL): Promise<T[]> => sqlRows<T>(t.db, q);

const STATUSES = ['approved', 'pending', 'rejected'] as const;
const STATES = ['NY', 'CA', 'TX', null] as const;
const HOUR = 3_600_000;
/** Instants around which the leads fall: DST changes, month ends, midnights in each zone. */
const ANCHORS = [
  '2026-03-08T07:00:00Z', // 02:00 EST -> 03:00 EDT
  '2026-11-01T06:00:00Z', // 02:00 EDT -> 01:00 EST
  '2026-03-01T05:00:00Z', // midnight New York, end of February
  '2026-10-31T18:15:00Z', // midnight Kathmandu (+05:45), end of October
  '2026-06-30T23:59:59Z',
  '2026-01-15T12:00:00Z',
];

function randomWrite(rand: () => number): SQL {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const cents = () => (Math.floor(rand() * 10_000) / 100).toFixed(2);
  const when = () => {
    const anchor = Date.parse(pick(ANCHORS));
    // Mostly within a day of the anchor, some exactly on it or a quarter hour off it.
    const off =
      rand() < 0.2 ? Math.round((rand() - 0.5) * 8) * 15 * 60_000 : (rand() - 0.5) * 48 * HOUR;
    return new Date(anchor + Math.round(off)).toISOString();
  };
  const lead = sql`(select id from leads order by md5(id::text || ${String(rand())}) limit 1)`;
  switch (Math.floor(rand() * 10)) {
    case 0:
    case 1:
    case 2: {
      const values = Array.from({ length: 1 + Math.floor(rand() * 6) }, () => {
        const revenue = rand() < 0.5 ? null : cents();
        const seconds = rand() < 0.5 ? null : Math.floor(rand() * 900);
        return sql`(${pick(pubs).id}::uuid, ${pick(offerIds)}::uuid, ${cents()}::numeric, ${pick(STATUSES)},
          ${Math.floor(rand() * 15)}, ${seconds}::int, ${revenue}::numeric, ${pick(STATES)}, ${when()}::timestamptz)`;
      });
      return sql`insert into leads (publisher_id, offer_id, payout, status, call_duration, duration_seconds, revenue, state, timestamp)
        values ${sql.join(values, sql`, `)}`;
    }
    case 3:
      return sql`update leads set status = ${pick(STATUSES)} where id = ${lead}`;
    case 4:
      return sql`update leads set timestamp = ${when()}::timestamptz, state = ${pick(STATES)} where id = ${lead}`;
    case 5:
      return sql`update leads set offer_id = ${pick(offerIds)}, publisher_id = ${pick(pubs).id} where id = ${lead}`;
    case 8:
      // A dispute filed on a lead (one open at a time), in any status.
      return sql`insert into lead_disputes (lead_id, publisher_id, status)
        select l.id, l.publisher_id, ${pick(['open', 'accepted', 'declined'])} from leads l
        where l.id = ${lead}
          and not exists (select 1 from lead_disputes d where d.lead_id = l.id and d.status = 'open')`;
    case 9:
      return sql`delete from lead_disputes where id = (
        select id from lead_disputes order by md5(id::text || ${String(rand())}) limit 1)`;
    case 6:
      return sql`update leads set revenue = ${rand() < 0.5 ? null : cents()}::numeric, payout = ${cents()}::numeric where id = ${lead}`;
    default:
      return sql`delete from leads where id = ${lead}`;
  }
}

type Raw = {
  key: string;
  calls: number;
  payable: number;
  dur: number;
  payout: string;
  revenue: string;
  rc: number;
  /** Payable calls that carry a revenue, and their payout. */
  rp: number;
  rpay: string;
  disp: number;
};

const toCents = (v: string | number) => Math.round(Number(v) * 100);

/**
 * The expected figures, computed the plain way (as the screen shows them): the margin is the
 * revenue less the payout of the payable calls that carry a revenue.
 */
function expected(r: Raw, revenue = true) {
  const calls = Number(r.calls);
  const payable = Number(r.payable);
  const rev = Number(r.rc) > 0 ? Number(r.revenue) : null;
  const payout = Number(r.payout);
  return {
    calls,
    payable_calls: payable,
    payable_rate: Math.round((payable / calls) * 1000) / 10,
    avg_duration: Math.round(Number(r.dur) / calls),
    payout,
    ...(revenue && {
      revenue: rev,
      margin: rev === null ? null : (toCents(r.revenue) - toCents(r.rpay)) / 100,
      margin_pct:
        rev === null || toCents(r.revenue) === 0
          ? null
          : Math.round(((toCents(r.revenue) - toCents(r.rpay)) / toCents(r.revenue)) * 1000) / 10,
      payable_without_revenue: payable - Number(r.rp),
      payout_without_revenue: (toCents(r.payout) - toCents(r.rpay)) / 100,
      disputes: Number(r.disp),
    }),
  };
}

/** The group's key of a lead `l` (joined with its offer `o`) in zone tz, in plain SQL. */
function keyOf(group: string, tz: string): SQL {
  switch (group) {
    case 'day':
      return sql`to_char(l.timestamp at time zone ${tz}, 'YYYY-MM-DD')`;
    case 'hour': {
      // The hour the lead falls in, as an instant: local clock truncated to the hour, the offset
      // of the lead's own instant taken back off.
      const off = sql`extract(epoch from (l.timestamp at time zone ${tz}) - (l.timestamp at time zone 'UTC'))`;
      return sql`to_char(to_timestamp(floor((extract(epoch from l.timestamp) + ${off}) / 3600) * 3600 - ${off}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
    }
    case 'offer':
      return sql`l.offer_id::text`;
    case 'vertical':
      return sql`o.vertical`;
    case 'publisher':
      return sql`l.publisher_id::text`;
    default:
      return sql`coalesce(l.state, '')`;
  }
}

async function fromLeads(opts: {
  tz: string;
  from: string;
  to: string;
  group: string;
  publisherId?: string;
}): Promise<Raw[]> {
  const { tz, from, to, group } = opts;
  return rows<Raw>(sql`
    select ${keyOf(group, tz)} as key, count(*)::int as calls,
           count(*) filter (where l.status = 'approved')::int as payable,
           sum(coalesce(l.duration_seconds, l.call_duration * 60))::int as dur,
           coalesce(sum(l.payout) filter (where l.status = 'approved'), 0)::text as payout,
           coalesce(sum(l.revenue), 0)::text as revenue, count(l.revenue)::int as rc,
           count(*) filter (where l.status = 'approved' and l.revenue is not null)::int as rp,
           coalesce(sum(l.payout) filter (where l.status = 'approved' and l.revenue is not null), 0)::text as rpay,
           sum((select count(*) from lead_disputes d where d.lead_id = l.id))::int as disp
    from leads l join offers o on o.id = l.offer_id
    where l.timestamp >= (${from}::date::timestamp at time zone ${tz})
      and l.timestamp < ((${to}::date + 1)::timestamp at time zone ${tz})
      ${opts.publisherId ? sql`and l.publisher_id = ${opts.publisherId}` : sql``}
    group by 1`);
}

const RANGES: [string, string][] = [
  ['2026-03-07', '2026-03-09'], // spring forward inside
  ['2026-03-08', '2026-03-08'], // the 23-hour day
  ['2026-11-01', '2026-11-01'], // the 25-hour day
  ['2026-10-30', '2026-11-02'], // month end and fall back
  ['2026-01-10', '2026-11-05'], // whole months and days at both ends
  ['2026-02-01', '2026-02-28'], // exactly one month
  ['2025-12-25', '2026-11-25'], // days, a month, quarters, a month, dekads, days
  ['2026-01-01', '2026-12-31'], // four quarters
  ['2026-02-11', '2026-10-20'], // dekads at both ends
];
const GROUPS = ['day', 'hour', 'offer', 'vertical', 'publisher', 'state'] as const;

/** Every rollup row's figures (slots summed, rows netting to nothing left out), in key order. */
async function rollups() {
  const figures = sql.raw(`sum(calls)::text calls, sum(payable)::text payable,
    sum(duration_seconds)::text dur, trim_scale(sum(payout))::text payout,
    trim_scale(sum(revenue))::text revenue, sum(revenue_calls)::text rc,
    sum(revenue_payable)::text rp, trim_scale(sum(revenue_payout))::text rpay, sum(disputes)::text disp`);
  const nonZero = sql.raw(`having sum(calls) <> 0 or sum(payable) <> 0 or sum(duration_seconds) <> 0
    or sum(payout) <> 0 or sum(revenue) <> 0 or sum(revenue_calls) <> 0
    or sum(revenue_payable) <> 0 or sum(revenue_payout) <> 0 or sum(disputes) <> 0`);
  return {
    quarterHours: await rows(sql`select owner, bucket::text, ${figures}
      from report_time_totals group by 1, 2 ${nonZero} order by 1, 2`),
    days: await rows(sql`select owner, dim, day::text, key, ${figures}
      from report_day_totals group by 1, 2, 3, 4 ${nonZero} order by 1, 2, 3, 4`),
    months: await rows(sql`select owner, dim, month::text, key, ${figures}
      from report_month_totals group by 1, 2, 3, 4 ${nonZero} order by 1, 2, 3, 4`),
    spans: await rows(sql`select owner, dim, span, start::text, key, ${figures}
      from report_span_totals group by 1, 2, 3, 4, 5 ${nonZero} order by 1, 2, 3, 4, 5`),
  };
}

async function setZone(tz: string) {
  await t.db.execute(sql`update settings set timezone = ${tz} where id = 1`);
}

async function adminReport(query: Record<string, string>) {
  const res = await t.call('GET', '/reports', { query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AdminReport;
}

/** The admin report of a custom range of days. */
const customReport = (from: string, to: string, more: Record<string, string> = {}) =>
  adminReport({ range: 'custom', from, to, ...more });

function daysIn(from: string, to: string) {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
}

describe('admin report figures equal plain SQL over the raw leads', () => {
  it('in UTC, America/New_York (DST days) and Asia/Kathmandu, for every grouping', async () => {
    const rand = prng(15);
    for (let i = 0; i < 80; i++) await t.db.execute(randomWrite(rand));
    for (const tz of ['America/New_York', 'UTC', 'Asia/Kathmandu']) {
      // Writes before the change are recounted by it; writes after it go through the triggers.
      await setZone(tz);
      for (let i = 0; i < 40; i++) await t.db.execute(randomWrite(rand));
      for (const [from, to] of RANGES) {
        for (const group of GROUPS) {
          if (group === 'hour' && daysIn(from, to) > 31) continue;
          const report = await adminReport({ range: 'custom', from, to, group });
          expect(report.timezone).toBe(tz);
          const want = await fromLeads({ tz, from, to, group });
          const got = report.rows.filter((r) => r.figures.calls > 0);
          expect(
            Object.fromEntries(got.map((r) => [r.key, r.figures])),
            `${tz} ${from}..${to} by ${group}`,
          ).toEqual(Object.fromEntries(want.map((r) => [r.key, expected(r)])));
          // Totals row: every lead of the range once.
          const all = await fromLeads({ tz, from, to, group: 'vertical' });
          expect(all.length).toBeGreaterThan(0);
          const sum = (k: keyof Raw) => all.reduce((n, r) => n + Number(r[k]), 0);
          expect(report.totals.calls).toBe(sum('calls'));
          expect(report.totals.payout).toBeCloseTo(sum('payout'), 2);
          expect(report.totals.disputes).toBe(sum('disp'));
          if (sum('rc') > 0)
            expect(report.totals.margin).toBeCloseTo(sum('revenue') - sum('rpay'), 2);
          else expect(report.totals.margin).toBeNull();
          expect(report.totals.payable_without_revenue).toBe(sum('payable') - sum('rp'));
          if (group === 'day') expect(report.rows.length).toBe(daysIn(from, to));
          if (group === 'hour' && tz === 'America/New_York') {
            const hours = daysIn(from, to) * 24;
            const dst = from === '2026-03-08' ? -1 : from === '2026-11-01' ? 1 : 0;
            if (from === to) expect(report.rows.length).toBe(hours + dst);
          }
        }
      }
    }
    // Disputes were filed and removed along the way, and the reports counted them.
    const year = await adminReport({ range: 'custom', from: '2026-01-01', to: '2026-12-31' });
    expect(year.totals.disputes).toBeGreaterThan(0);
    const labels = await customReport('2026-11-01', '2026-11-01', { group: 'hour' });
    // Kathmandu is the zone now; back to New York for the labels of the repeated hour.
    expect(labels.timezone).toBe('Asia/Kathmandu');
    await setZone('America/New_York');
    const ny = await customReport('2026-11-01', '2026-11-01', { group: 'hour' });
    expect(ny.rows.slice(0, 3).map((r) => r.label)).toEqual([
      '2026-11-01 00:00 EDT',
      '2026-11-01 01:00 EDT',
      '2026-11-01 01:00 EST',
    ]);
  }, 120_000); // 80 writes, then every grouping in three zones: ~10 s alone, 40 s+ on a busy 2-core machine

  it('counts the same figures folded call by call as recounted by a rebuild', async () => {
    await setZone('America/New_York');
    const rand = prng(27);
    for (let i = 0; i < 60; i++) await t.db.execute(randomWrite(rand));
    const query = { range: 'custom', from: '2026-01-01', to: '2026-12-31', group: 'publisher' };
    const folded = await adminReport(query);
    const foldedRollups = await rollups();
    await t.db.execute(sql`select rebuild_report_totals()`);
    expect(await rollups()).toEqual(foldedRollups);
    expect(await adminReport(query)).toEqual(folded);
    // Some payable calls carry a revenue and some do not: the margin and what it leaves out
    // are both there to compare.
    expect(folded.totals.payable_without_revenue).toBeGreaterThan(0);
    expect(folded.totals.payable_without_revenue).toBeLessThan(folded.totals.payable_calls);
    expect(folded.totals.margin).not.toBeNull();
  });

  it('compares each group with the previous equal period and sorts by any column', async () => {
    await setZone('America/New_York');
    const report = await customReport('2026-11-01', '2026-11-02', {
      group: 'offer',
      compare: 'true',
      sort: 'payout',
      order: 'asc',
    });
    expect(report.previous).toEqual({ from: '2026-10-30', to: '2026-10-31' });
    const before = await customReport('2026-10-30', '2026-10-31', { group: 'offer' });
    expect(report.previous_totals).toEqual(before.totals);
    for (const row of report.rows) {
      const prev = before.rows.find((r) => r.key === row.key);
      expect(row.previous_figures?.calls).toBe(prev?.figures.calls ?? 0);
    }
    const payouts = report.rows.map((r) => r.figures.payout);
    expect(payouts).toEqual([...payouts].sort((a, b) => a - b));

    const days = await customReport('2026-03-08', '2026-03-09', { group: 'day', compare: 'true' });
    const earlier = await customReport('2026-03-06', '2026-03-07', { group: 'day' });
    expect(days.rows.map((r) => r.previous_figures)).toEqual(earlier.rows.map((r) => r.figures));
  });

  it('sorts offers, publishers and states by name, either way, as the database orders names', async () => {
    await setZone('UTC');
    for (const group of ['offer', 'publisher', 'state'] as const) {
      const byCalls = await customReport('2026-01-10', '2026-11-05', { group });
      expect(byCalls.rows.length).toBeGreaterThan(1);
      for (const order of ['asc', 'desc'] as const) {
        const byName = await customReport('2026-01-10', '2026-11-05', {
          group,
          sort: 'label',
          order,
        });
        // The same groups with the same figures, ordered by lower(name) then key.
        const sameRows = (r: AdminReport) =>
          Object.fromEntries(r.rows.map((x) => [x.key, [x.label, x.figures]]));
        expect(sameRows(byName)).toEqual(sameRows(byCalls));
        const list = JSON.stringify(byName.rows.map((x) => [x.key, x.label]));
        const expected = await rows<{ key: string }>(sql`
          select x->>0 as key from jsonb_array_elements(${list}::jsonb) x
          order by lower(x->>1) ${sql.raw(order)} nulls last, x->>0 ${sql.raw(order)}`);
        expect(byName.rows.map((x) => x.key)).toEqual(expected.map((x) => x.key));
      }
    }
    // A renamed offer moves at once (the order of names is kept until a name changes).
    const query = {
      range: 'custom',
      from: '2026-01-10',
      to: '2026-11-05',
      group: 'offer',
      sort: 'label',
      order: 'asc',
    };
    const last = (await adminReport(query)).rows.at(-1)!;
    await t.db.execute(sql`update offers set title = '  AAA renamed first' where id = ${last.key}`);
    const renamed = await adminReport(query);
    expect(renamed.rows[0]!.key).toBe(last.key);
    expect(renamed.rows[0]!.label).toBe('  AAA renamed first');
  });

  it('answers presets in the network zone and refuses ranges it cannot show', async () => {
    await setZone('Pacific/Kiritimati'); // UTC+14: "today" is often another day than in UTC
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(
      new Date(),
    );
    const r = await adminReport({ range: 'today', group: 'hour' });
    expect([r.from, r.to]).toEqual([today, today]);
    expect(r.rows).toHaveLength(24);
    const bad = await t.call('GET', '/reports', {
      query: { range: 'custom', from: '2026-01-01', to: '2026-03-01', group: 'hour' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/Group by hour covers at most 31 days/);
    const noDays = await t.call('GET', '/reports', { query: { range: 'custom' } });
    expect(noDays.statusCode).toBe(400);
    const reversed = await t.call('GET', '/reports', {
      query: { range: 'custom', from: '2026-02-01', to: '2026-01-01' },
    });
    expect(reversed.statusCode).toBe(400);
  });
});

describe('margin: revenue and payout of the same calls', () => {
  it('subtracts the payout of the calls that carry a revenue and shows the others beside it', async () => {
    await setZone('UTC');
    const [x, y, z] = await Promise.all(
      ['Margin X', 'Margin Y', 'Margin Z'].map((title) =>
        buildOffer(t.db, { title, vertical: 'Margins' }),
      ),
    );
    // One day of 2025, away from every other lead of this file: offer X has a payable call with
    // a revenue and one without; Y a rejected call with a revenue (it pays nothing) and a
    // pending one; Z a payable call without a revenue.
    const calls: [string, string, number, number | null, string][] = [
      [x!.id, 'approved', 30, 50, '10:05'],
      [x!.id, 'approved', 20, null, '10:40'],
      [y!.id, 'rejected', 25, 40, '11:10'],
      [y!.id, 'pending', 10, null, '11:20'],
      [z!.id, 'approved', 15, null, '12:30'],
    ];
    for (const [offer, status, payout, revenue, at] of calls) {
      await t.db.execute(sql`insert into leads (publisher_id, offer_id, payout, status, call_duration, revenue, timestamp)
        values (${pubs[0]!.id}, ${offer}, ${payout}, ${status}, 1, ${revenue}::numeric, ${`2025-05-12T${at}:00Z`}::timestamptz)`);
    }
    const day = { range: 'custom', from: '2025-05-12', to: '2025-05-12' };
    const byOffer = async (sort = 'label', order = 'asc') =>
      adminReport({ ...day, group: 'offer', sort, order });
    const margins = (r: AdminReport) =>
      Object.fromEntries(
        r.rows.map((row) => [
          row.label,
          [
            row.figures.revenue,
            row.figures.payout,
            row.figures.margin,
            row.figures.payable_without_revenue,
            row.figures.payout_without_revenue,
          ],
        ]),
      );
    // [revenue, payout, margin, payable calls without revenue, their payout]
    const report = await byOffer();
    expect(margins(report)).toEqual({
      'Margin X': [50, 50, 20, 1, 20],
      'Margin Y': [40, 0, 40, 0, 0],
      'Margin Z': [null, 15, null, 1, 15],
    });
    // The totals row: $90 revenue − $30 payout of the calls with one = $60 (not 90 − 65 = 25);
    // 2 payable calls ($35 payout) carry no revenue.
    expect(report.totals).toMatchObject({
      calls: 5,
      payable_calls: 3,
      payout: 65,
      revenue: 90,
      margin: 60,
      payable_without_revenue: 2,
      payout_without_revenue: 35,
    });

    // Sorted by margin (in memory, by offer; in SQL, by hour), nulls last either way.
    expect((await byOffer('margin', 'desc')).rows.map((r) => r.label)).toEqual([
      'Margin Y',
      'Margin X',
      'Margin Z',
    ]);
    expect((await byOffer('margin', 'asc')).rows.map((r) => r.label)).toEqual([
      'Margin X',
      'Margin Y',
      'Margin Z',
    ]);
    expect((await byOffer('payout_without_revenue', 'desc')).rows.map((r) => r.label)).toEqual([
      'Margin X',
      'Margin Z',
      'Margin Y',
    ]);
    const hours = await adminReport({ ...day, group: 'hour', sort: 'margin', order: 'desc' });
    expect(hours.rows.slice(0, 2).map((r) => [r.label, r.figures.margin])).toEqual([
      ['2025-05-12 11:00 UTC', 40],
      ['2025-05-12 10:00 UTC', 20],
    ]);
    // Z's hour has payable calls but no revenue: no margin, with the hours without calls.
    expect(hours.rows.slice(2).every((r) => r.figures.margin === null)).toBe(true);
    expect(hours.rows.find((r) => r.label === '2025-05-12 12:00 UTC')!.figures).toMatchObject({
      margin: null,
      payout_without_revenue: 15,
    });

    // The CSV has the same figures under headers that say what they count.
    const csv = await t.call('GET', '/reports.csv', {
      query: { ...day, group: 'offer', sort: 'label', order: 'asc' },
    });
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'Offer,Calls,Payable calls,Payable %,Avg duration (s),Payout,Revenue,Margin (calls with revenue),Margin %,Payable calls without revenue,Payout without revenue,Disputes',
    );
    expect(lines.slice(1).map((l) => l.split(',').slice(5))).toEqual([
      ['50', '50', '20', '40', '1', '20', '0'],
      ['0', '40', '40', '100', '0', '0', '0'],
      ['15', '', '', '', '1', '15', '0'],
      ['65', '90', '60', '66.7', '2', '35', '0'],
    ]);

    // X's call without a revenue gets one ($35): all of X's payout is in its margin now.
    await t.db.execute(
      sql`update leads set revenue = 35 where offer_id = ${x!.id} and revenue is null`,
    );
    let now = await byOffer();
    expect(margins(now)['Margin X']).toEqual([85, 50, 35, 0, 0]);
    expect(now.totals).toMatchObject({ margin: 75, payable_without_revenue: 1 });
    // Y's rejected call is approved: its payout joins the margin's.
    await t.db.execute(
      sql`update leads set status = 'approved' where offer_id = ${y!.id} and revenue is not null`,
    );
    now = await byOffer();
    expect(margins(now)['Margin Y']).toEqual([40, 25, 15, 0, 0]);
    expect(now.totals).toMatchObject({ payout: 90, margin: 50, payout_without_revenue: 15 });
  });
});

describe('firstByFigure', () => {
  it('picks the first groups exactly as a full sort by figure (nulls last), then key', () => {
    const rand = prng(29);
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(rand() * 60);
      const keys = Array.from({ length: n + 5 }, (_, i) => `k${(i * 7919) % 1000}`);
      // Few distinct figures, so ties are common; some nulls (a rate with no calls), 0 and -0.
      const figure = keys.map(() => {
        const x = rand();
        return x < 0.15 ? null : x < 0.25 ? 0 : x < 0.3 ? -0 : Math.floor(rand() * 6) - 2;
      });
      const all = Array.from({ length: n }, (_, i) => i + (round % 5));
      for (const dir of [1, -1] as const) {
        const full = [...all].sort((a, b) => {
          const fa = figure[a]!;
          const fb = figure[b]!;
          if ((fa === null) !== (fb === null)) return fa === null ? 1 : -1;
          if (fa !== null && fb !== null && fa !== fb) return (fa < fb ? -1 : 1) * dir;
          return (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0) * dir;
        });
        const limit = 1 + Math.floor(rand() * (n + 3));
        const got = firstByFigure([...all], { keys, place: (k) => figure[k]!, dir, limit });
        expect(got).toEqual(full.slice(0, limit));
      }
    }
  });
});

describe('blockRuns', () => {
  it('covers a range with the fewest aligned days, dekads, months and quarters', () => {
    expect(blockRuns('2025-12-25', '2026-11-25')).toEqual([
      { level: 'day', lo: '2025-12-25', hi: '2026-01-01' },
      { level: 'quarter', lo: '2026-01-01', hi: '2026-10-01' },
      { level: 'month', lo: '2026-10-01', hi: '2026-11-01' },
      { level: 'dekad', lo: '2026-11-01', hi: '2026-11-21' },
      { level: 'day', lo: '2026-11-21', hi: '2026-11-26' },
    ]);
    expect(blockRuns('2026-02-21', '2026-03-10')).toEqual([
      { level: 'dekad', lo: '2026-02-21', hi: '2026-03-11' },
    ]);
    expect(blockRuns('2026-03-08', '2026-03-08')).toEqual([
      { level: 'day', lo: '2026-03-08', hi: '2026-03-09' },
    ]);
    expect(blockRuns('2026-11-01', '2026-11-30')).toEqual([
      { level: 'month', lo: '2026-11-01', hi: '2026-12-01' },
    ]);
  });

  it('warms every block of any range of the last year', () => {
    const lastPast = '2026-11-25';
    const warmed = new Set(blocksOfLastYear(lastPast).map((b) => `${b.from}/${b.to}`));
    const day = (back: number) =>
      new Date(Date.UTC(2026, 10, 25 - back)).toISOString().slice(0, 10);
    for (const end of [0, 17, 100, 200]) {
      for (let back = end; back <= 366; back++) {
        for (const b of singleBlocks(day(back), day(end))) {
          expect(warmed).toContain(`${b.from}/${b.to}`);
        }
      }
    }
    // Nothing after the last past day.
    for (const b of warmed) expect(b.slice(11) <= lastPast).toBe(true);
  });

  it('cuts the runs into single blocks, each with its first and last day', () => {
    expect(singleBlocks('2026-02-21', '2026-07-12')).toEqual([
      { from: '2026-02-21', to: '2026-02-28' },
      { from: '2026-03-01', to: '2026-03-31' },
      { from: '2026-04-01', to: '2026-06-30' },
      { from: '2026-07-01', to: '2026-07-10' },
      { from: '2026-07-11', to: '2026-07-11' },
      { from: '2026-07-12', to: '2026-07-12' },
    ]);
    // The blocks tile the range: every day once, in order.
    const blocks = singleBlocks('2025-12-25', '2026-11-25');
    expect(blocks[0]!.from).toBe('2025-12-25');
    expect(blocks.at(-1)!.to).toBe('2026-11-25');
    for (let i = 1; i < blocks.length; i++) {
      const prev = new Date(`${blocks[i - 1]!.to}T00:00:00Z`);
      prev.setUTCDate(prev.getUTCDate() + 1);
      expect(blocks[i]!.from).toBe(prev.toISOString().slice(0, 10));
    }
  });
});

describe('publisher reports', () => {
  it('hold the publisher own leads only, without revenue or margin', async () => {
    await setZone('America/New_York');
    for (const [i, pub] of pubs.entries()) {
      for (const group of ['day', 'offer', 'state'] as const) {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/v1/publisher/reports',
          query: { range: 'custom', from: '2026-01-10', to: '2026-11-05', group },
          headers: { authorization: `Bearer ${pubTokens[i]}` },
        });
        expect(res.statusCode).toBe(200);
        const report = res.json() as PublisherReport;
        const want = await fromLeads({
          tz: 'America/New_York',
          from: '2026-01-10',
          to: '2026-11-05',
          group,
          publisherId: pub.id,
        });
        expect(
          Object.fromEntries(
            report.rows.filter((r) => r.figures.calls > 0).map((r) => [r.key, r.figures]),
          ),
        ).toEqual(Object.fromEntries(want.map((r) => [r.key, expected(r, false)])));
        expect(res.body).not.toMatch(/revenue|margin|disputes/);
      }
      // The overview's cards over the same days: the publisher's own calls and payable payout.
      const ov = await t.app.inject({
        method: 'GET',
        url: '/api/v1/publisher/overview/range',
        query: { range: 'custom', from: '2026-01-10', to: '2026-11-05' },
        headers: { authorization: `Bearer ${pubTokens[i]}` },
      });
      expect(ov.statusCode, ov.body).toBe(200);
      const mine = await fromLeads({
        tz: 'America/New_York',
        from: '2026-01-10',
        to: '2026-11-05',
        group: 'vertical',
        publisherId: pub.id,
      });
      const overview = ov.json();
      expect(overview.total_leads).toBe(mine.reduce((n, r) => n + Number(r.calls), 0));
      expect(overview.total_earnings).toBeCloseTo(
        mine.reduce((n, r) => n + Number(r.payout), 0),
        2,
      );
      expect(overview.days).toHaveLength(daysIn('2026-01-10', '2026-11-05'));
    }
    // The publisher API has no way to name another publisher; the admin report is closed to them.
    const admin = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/reports',
      headers: { authorization: `Bearer ${pubTokens[0]}` },
    });
    expect(admin.statusCode).toBe(403);
  });
});

describe('CSV', () => {
  it('holds exactly the rows, columns and totals of the report', async () => {
    const query = {
      range: 'custom',
      from: '2026-10-30',
      to: '2026-11-02',
      group: 'offer',
      compare: 'true',
      sort: 'calls',
    };
    const report = await adminReport(query);
    const csv = await t.call('GET', '/reports.csv', { query });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'Offer,Calls,Calls (previous),Calls change %,Payable calls,Payable calls (previous),Payable calls change %,Payable %,Payable % (previous),Payable % change %,Avg duration (s),Avg duration (s) (previous),Avg duration (s) change %,Payout,Payout (previous),Payout change %,Revenue,Revenue (previous),Revenue change %,Margin (calls with revenue),Margin (calls with revenue) (previous),Margin (calls with revenue) change %,Margin %,Margin % (previous),Margin % change %,Payable calls without revenue,Payable calls without revenue (previous),Payable calls without revenue change %,Payout without revenue,Payout without revenue (previous),Payout without revenue change %,Disputes,Disputes (previous),Disputes change %',
    );
    expect(lines).toHaveLength(report.rows.length + 2);
    const cell = (v: number | null) => (v === null ? '' : String(v));
    for (const [i, row] of report.rows.entries()) {
      const cells = lines[i + 1]!.split(',');
      expect(cells[0]).toBe(row.label);
      expect(cells[1]).toBe(cell(row.figures.calls));
      expect(cells[2]).toBe(cell(row.previous_figures?.calls ?? null));
      // Nothing before and something now: "new" instead of an empty change (issue 34).
      const prevCalls = row.previous_figures?.calls ?? 0;
      if (row.figures.calls > 0 && prevCalls === 0) expect(cells[3]).toBe('new');
      expect(cells[13]).toBe(cell(row.figures.payout));
      expect(cells[16]).toBe(cell(row.figures.revenue));
      expect(cells[19]).toBe(cell(row.figures.margin));
      expect(cells[22]).toBe(cell(row.figures.margin_pct));
      expect(cells[25]).toBe(cell(row.figures.payable_without_revenue));
      expect(cells[28]).toBe(cell(row.figures.payout_without_revenue));
    }
    expect(lines.at(-1)!.split(',').slice(0, 2)).toEqual(['Total', String(report.totals.calls)]);
  });
});

describe('Last 30 days and the zone in the CSV (issue 34 item 4)', () => {
  it('covers the 30 days up to today and names the zone in the day column only', async () => {
    const report = await adminReport({ range: 'last_30_days', group: 'day' });
    expect(report.rows).toHaveLength(30);
    expect(report.to).toBe(report.rows.at(-1)!.key);
    const csv = await t.call('GET', '/reports.csv', { query: { range: 'last_30_days' } });
    expect(csv.body.split('\r\n')[0]!.split(',')[0]).toBe(`Day (${report.timezone})`);
  });
});
