import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReport } from '../../../contract/reports.ts';
import { campaigns, leads, settings } from '../../db/schema.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { buildOffer, buildPublisher, buildUser } from '../../test/factories.ts';
import { prng, sqlRows } from '../../test/seeded.ts';

/**
 * Issue 31 item 7: the network's margin (revenue, payout, margin, margin %) by offer, publisher,
 * buyer and campaign over any range, from the kept blocks, equal to the raw leads to the cent.
 */

let t: AdminTestContext;
const ids: { buyers: string[]; campaigns: string[] } = { buyers: [], campaigns: [] };

beforeAll(async () => {
  t = await setupAdminTest();
  await t.db.update(settings).set({ timezone: 'America/New_York' });
  const pubs = [await buildPublisher(t.db), await buildPublisher(t.db)];
  const offers = [await buildOffer(t.db), await buildOffer(t.db)];
  for (const name of ['Acme Insurance', 'Bolt Legal']) {
    ids.buyers.push((await buildUser(t.db, { role: 'buyer', name })).id);
  }
  const made = await t.db
    .insert(campaigns)
    .values([
      { buyerId: ids.buyers[0]!, name: 'Acme Auto', status: 'paused' as const },
      { buyerId: ids.buyers[0]!, name: 'Acme Home', status: 'paused' as const },
      { buyerId: ids.buyers[1]!, name: 'Bolt Injury', status: 'paused' as const },
    ])
    .returning({ id: campaigns.id });
  ids.campaigns.push(...made.map((c) => c.id));
  const rand = prng(31);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const cents = () => (Math.floor(rand() * 10_000) / 100).toFixed(2);
  const start = Date.parse('2025-06-01T00:00:00Z');
  const rows = Array.from({ length: 400 }, (_, i) => {
    // Acme Home's calls all carry a revenue: its margin is revenue − payout, every payable call.
    const campaignId = pick([...ids.campaigns, null]);
    const withRevenue = campaignId === ids.campaigns[1] || rand() < 0.7;
    return {
      publisherId: pick(pubs).id,
      offerId: pick(offers).id,
      campaignId,
      timestamp: new Date(start + Math.floor(rand() * 400) * 86_400_000 + (i % 24) * 3_600_000),
      payout: cents(),
      revenue: withRevenue ? cents() : null,
      status: pick(['approved', 'approved', 'pending', 'rejected'] as const),
      durationSeconds: 30 + i,
    };
  });
  await t.db.insert(leads).values(rows);
});
afterAll(() => t.close());

const FROM = '2025-07-01';
const TO = '2026-06-30';

/** The report's money figures in cents, per key. */
async function reported(group: string) {
  const res = await t.call('GET', '/reports', {
    query: { range: 'custom', from: FROM, to: TO, group, sort: 'margin', order: 'desc' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as AdminReport;
  const c = (v: number | null) => (v === null ? null : Math.round(v * 100));
  return {
    body,
    byKey: new Map(
      body.rows.map((r) => [
        r.key,
        {
          revenue: c(r.figures.revenue),
          payout: c(r.figures.payout),
          margin: c(r.figures.margin),
          margin_pct: r.figures.margin_pct,
        },
      ]),
    ),
  };
}

/** The same figures from the raw leads, in the network's days. */
async function raw(keyExpr: string) {
  const res = await sqlRows<{
    key: string;
    revenue: string;
    payout: string;
    rpay: string;
    rc: number;
  }>(
    t.db,
    sql`select ${sql.raw(keyExpr)} as key,
        (coalesce(sum(l.revenue), 0) * 100)::bigint::text revenue,
        (coalesce(sum(l.payout) filter (where l.status = 'approved'), 0) * 100)::bigint::text payout,
        (coalesce(sum(l.payout) filter (where l.status = 'approved' and l.revenue is not null), 0) * 100)::bigint::text rpay,
        count(l.revenue)::int rc
      from leads l left join campaigns c on c.id = l.campaign_id
      where (l.timestamp at time zone 'America/New_York')::date between ${FROM}::date and ${TO}::date
      group by 1`,
  );
  return new Map(
    res.map((r) => {
      const revenue = Number(r.revenue);
      const margin = revenue - Number(r.rpay);
      return [
        r.key,
        {
          revenue: r.rc > 0 ? revenue : null,
          payout: Number(r.payout),
          margin: r.rc > 0 ? margin : null,
          margin_pct: r.rc > 0 && revenue !== 0 ? Math.round((margin / revenue) * 1000) / 10 : null,
        },
      ];
    }),
  );
}

const KEYS: Record<string, string> = {
  buyer: "coalesce(c.buyer_id::text, '')",
  campaign: "coalesce(l.campaign_id::text, '')",
  offer: 'l.offer_id::text',
  publisher: 'l.publisher_id::text',
};

describe('the network margin by offer, publisher, buyer and campaign', () => {
  it('equals revenue − payout of the raw leads to the cent, over a year of blocks', async () => {
    for (const group of Object.keys(KEYS)) {
      const { byKey } = await reported(group);
      expect(byKey, group).toEqual(await raw(KEYS[group]!));
    }
  });

  it('names buyers and campaigns, and "No campaign" for calls none took; totals are the rows', async () => {
    const { body } = await reported('campaign');
    expect(body.rows.map((r) => r.label).sort()).toEqual(
      ['Acme Auto', 'Acme Home', 'Bolt Injury', 'No campaign'].sort(),
    );
    const sum = (f: 'revenue' | 'payout' | 'margin') =>
      body.rows.reduce((s, r) => s + Math.round((r.figures[f] ?? 0) * 100), 0);
    expect(sum('revenue')).toBe(Math.round(body.totals.revenue! * 100));
    expect(sum('payout')).toBe(Math.round(body.totals.payout * 100));
    expect(sum('margin')).toBe(Math.round(body.totals.margin! * 100));
    // Every call of Acme Home carries a revenue: margin = revenue − payout, exactly.
    const home = body.rows.find((r) => r.label === 'Acme Home')!.figures;
    expect(home.payout_without_revenue).toBe(0);
    expect(Math.round(home.margin! * 100)).toBe(
      Math.round(home.revenue! * 100) - Math.round(home.payout * 100),
    );
    const buyers = (await reported('buyer')).body.rows.map((r) => r.label).sort();
    expect(buyers).toEqual(['Acme Insurance', 'Bolt Legal', 'No buyer']);
  });

  it('stays exact after calls move between campaigns and a campaign is renamed', async () => {
    await reported('campaign');
    await t.db.execute(sql`update leads set campaign_id = ${ids.campaigns[2]!}
      where campaign_id = ${ids.campaigns[0]!} and status = 'approved'`);
    await t.db.execute(sql`update leads set revenue = revenue + 1.01 where campaign_id is null`);
    await t.db.execute(sql`update campaigns set name = 'Acme Car' where id = ${ids.campaigns[0]!}`);
    for (const group of ['buyer', 'campaign']) {
      expect((await reported(group)).byKey, group).toEqual(await raw(KEYS[group]!));
    }
    const names = (await reported('campaign')).body.rows.map((r) => r.label);
    expect(names).toContain('Acme Car');
  });

  it('a rebuild recounts the rollups the triggers kept, buyers and campaigns included', async () => {
    // What each rollup holds per key (its slots summed, rows of nothing left out), as text.
    const kept = async () => {
      const figures = `sum(calls)::text, sum(payable)::text, sum(duration_seconds)::text,
        trim_scale(sum(payout))::text, trim_scale(sum(revenue))::text, sum(revenue_calls)::text,
        sum(revenue_payable)::text, trim_scale(sum(revenue_payout))::text, sum(disputes)::text`;
      const some = `having sum(calls) <> 0 or sum(payout) <> 0 or sum(revenue) <> 0
        or sum(duration_seconds) <> 0 or sum(disputes) <> 0`;
      const of = (table: string, keys: string) =>
        sqlRows(
          t.db,
          sql.raw(
            `select ${keys}, ${figures} from ${table} group by ${keys} ${some} order by ${keys}`,
          ),
        );
      return {
        days: await of('report_day_totals', 'owner, dim, day, key'),
        months: await of('report_month_totals', 'owner, dim, month, key'),
        spans: await of('report_span_totals', 'owner, dim, span, start, key'),
        quarterHours: await of('report_time_totals', 'owner, bucket'),
      };
    };
    const before = await kept();
    expect(
      before.days.filter((r) => (r as { dim: string }).dim === 'campaign').length,
    ).toBeGreaterThan(100);
    await t.db.execute(sql`select rebuild_totals()`);
    expect(await kept()).toEqual(before);
  });

  it('CSV has the margin %', async () => {
    const csv = await t.call('GET', '/reports.csv', {
      query: { range: 'custom', from: FROM, to: TO, group: 'buyer' },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n')[0]).toContain('Margin (calls with revenue),Margin %');
  });
});
