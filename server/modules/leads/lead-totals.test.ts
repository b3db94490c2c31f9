import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type DbOrTx, openPostgres } from '../../db/client.ts';
import { ensureSettings } from '../../db/settings.ts';
import { createTestDatabase } from '../../test/build-test-app.ts';
import { buildOffer, buildPublisher, buildUser } from '../../test/factories.ts';
import { prng, sqlRows } from '../../test/seeded.ts';
import { getOverview } from '../reports/overview.service.ts';
import { getDailyStats, getStats } from '../reports/stats.service.ts';
import { exactLeadCount, type LeadCountFilter, maintainedLeadTotals } from './lead-totals.ts';

/**
 * The maintained totals (issue 12) against the same figures counted from the raw rows with
 * plain SQL, after random writes of every kind, sequential and (on PostgreSQL) concurrent.
 */

let database: Database;
let drop: () => Promise<void>;
let db: DbOrTx;
const publishers: string[] = [];
const offerIds: string[] = [];
/** Buyer campaigns (issue 31): the report dimensions buyer and campaign. */
const campaignIds: string[] = [];

beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
  db = database.db;
  for (let i = 0; i < 4; i++) publishers.push((await buildPublisher(db)).id);
  for (let i = 0; i < 2; i++) offerIds.push((await buildOffer(db)).id);
  // Offer 0's single active campaign takes its calls (the batches below are billed to it at
  // $12.50); a second buyer's campaign is set on leads by hand in the random writes.
  for (let i = 0; i < 2; i++) {
    const buyer = await buildUser(db, { role: 'buyer' });
    const [c] = await rows<{ id: string }>(sql`insert into campaigns
        (buyer_id, name, status, offer_id, price_per_call, approved_at)
      values (${buyer.id}, ${`Totals ${i}`}, ${i === 0 ? 'active' : 'paused'},
              ${i === 0 ? offerIds[0]! : null}, 12.50, now()) returning id`);
    campaignIds.push(c!.id);
  }
});
afterAll(async () => {
  await database?.close();
  await drop?.();
});

const rows = <T>(q: SQL, on: DbOrTx = db): Promise<T[]> => sqlRows<T>(on, q);

const STATUSES = ['approved', 'pending', 'rejected'] as const;
const DAY_MS = 86_400_000;

/** One random write statement on leads or payouts, as plain SQL (as any writer could send). */
function randomWrite(rand: () => number): SQL {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const cents = () => (Math.floor(rand() * 100_000) / 100).toFixed(2);
  // Times around now, some on the edge of a UTC day.
  const when = () => {
    const day = Math.floor(Date.now() / DAY_MS) - Math.floor(rand() * 5);
    const edge = rand() < 0.3 ? (rand() < 0.5 ? 0 : DAY_MS - 1) : Math.floor(rand() * DAY_MS);
    return new Date(day * DAY_MS + edge).toISOString();
  };
  const lead = sql`(select id from leads order by md5(id::text || ${String(rand())}) limit 1)`;
  const payout = sql`(select id from payouts order by md5(id::text || ${String(rand())}) limit 1)`;
  switch (Math.floor(rand() * 13)) {
    case 12:
      // A run marked paid, or a payout back to recorded (payout_day_totals keeps paid apart).
      return sql`update payouts set status = ${pick(['paid', 'recorded'])} where id = ${payout}`;
    case 11:
      // An upsert (as an ingestion retry might send): the row is inserted or updated.
      return sql`insert into leads (id, publisher_id, offer_id, payout, status, timestamp)
        values (coalesce(${lead}, gen_random_uuid()), ${pick(publishers)}, ${pick(offerIds)}, ${cents()}, ${pick(STATUSES)}, ${when()}::timestamptz)
        on conflict (id) do update set status = excluded.status, payout = excluded.payout,
          publisher_id = excluded.publisher_id, timestamp = excluded.timestamp`;
    case 0:
    case 1: {
      const n = 1 + Math.floor(rand() * 4);
      const values = Array.from(
        { length: n },
        () =>
          sql`(${pick(publishers)}::uuid, ${pick(offerIds)}::uuid, ${cents()}::numeric, ${pick(STATUSES)}, ${Math.floor(rand() * 30)}, ${when()}::timestamptz)`,
      );
      return sql`insert into leads (publisher_id, offer_id, payout, status, call_duration, timestamp) values ${sql.join(values, sql`, `)}`;
    }
    case 2:
      return sql`update leads set status = ${pick(STATUSES)} where id = ${lead}`;
    case 3:
      return sql`update leads set publisher_id = ${pick(publishers)} where id = ${lead}`;
    case 4:
      return sql`update leads set payout = ${cents()}, call_duration = ${Math.floor(rand() * 30)},
        duration_seconds = ${rand() < 0.5 ? null : Math.floor(rand() * 900)}, state = ${pick(['CA', 'TX', null])},
        revenue = ${rand() < 0.5 ? null : cents()},
        campaign_id = ${pick([...campaignIds, null])}::uuid where id = ${lead}`;
    case 5:
      return sql`update leads set timestamp = ${when()}::timestamptz where id = ${lead}`;
    case 6:
      // Several rows at once, across groups.
      return sql`update leads set status = ${pick(STATUSES)} where publisher_id = ${pick(publishers)}`;
    case 7:
      return sql`delete from leads where id = ${lead}`;
    case 8:
      return sql`insert into payouts (publisher_id, amount, date) values (${pick(publishers)}, ${(Number(cents()) + 0.01).toFixed(2)}, ${when()}::timestamptz)`;
    case 9:
      return sql`update payouts set amount = ${(Number(cents()) + 0.01).toFixed(2)}, publisher_id = ${pick(publishers)}, date = ${when()}::timestamptz where id = ${payout}`;
    default:
      return sql`delete from payouts where id = ${payout}`;
  }
}

type Figures = Record<string, unknown[]>;

/** The network's time zone the raw figures count days in (settings.timezone of the test). */
let zone = 'UTC';

/** Every maintained figure (slots summed, groups with nothing left out) and the same from raw rows. */
async function compare(): Promise<{ maintained: Figures; raw: Figures }> {
  const q = async (s: SQL) => rows<Record<string, string>>(s);
  const maintained: Figures = {
    byPublisher:
      await q(sql`select publisher_id, status, sum(leads)::text n, sum(payout)::text payout, sum(call_duration)::text dur
      from lead_totals group by 1, 2 having sum(leads) <> 0 or sum(payout) <> 0 or sum(call_duration) <> 0 order by 1, 2`),
    byDay: await q(sql`select day::text, status, sum(leads)::text n, sum(payout)::text payout
      from lead_daily_totals group by 1, 2 having sum(leads) <> 0 or sum(payout) <> 0 order by 1, 2`),
    byPublisherDay:
      await q(sql`select publisher_id, day::text, sum(leads)::text n, sum(payout)::text payout
      from lead_publisher_daily_totals group by 1, 2 having sum(leads) <> 0 or sum(payout) <> 0 order by 1, 2`),
    payoutsByPublisher:
      await q(sql`select publisher_id, sum(payouts)::text n, sum(amount)::text amount
      from payout_totals group by 1 having sum(payouts) <> 0 or sum(amount) <> 0 order by 1`),
  };
  // The report rollups (drizzle/0012, 0019, 0021): the queue folded first, as a report does.
  await db.execute(sql`select fold_report_deltas()`);
  const figures =
    sql.raw(`sum(calls)::text calls, sum(payable)::text payable, sum(duration_seconds)::text dur,
    trim_scale(sum(payout))::text payout, trim_scale(sum(revenue))::text revenue, sum(revenue_calls)::text rc, sum(disputes)::text disputes,
    sum(revenue_payable)::text rp, trim_scale(sum(revenue_payout))::text rpay`);
  const nonZero = sql.raw(`having sum(calls) <> 0 or sum(payable) <> 0 or sum(duration_seconds) <> 0
    or sum(payout) <> 0 or sum(revenue) <> 0 or sum(revenue_calls) <> 0 or sum(disputes) <> 0
    or sum(revenue_payable) <> 0 or sum(revenue_payout) <> 0`);
  maintained.reportQuarterHours = await q(sql`select owner, bucket::text, ${figures}
    from report_time_totals group by 1, 2 ${nonZero} order by 1, 2`);
  maintained.reportDays = await q(sql`select owner, dim, day::text, key, ${figures}
    from report_day_totals group by 1, 2, 3, 4 ${nonZero} order by 1, 2, 3, 4`);
  maintained.reportMonths = await q(sql`select owner, dim, month::text, key, ${figures}
    from report_month_totals group by 1, 2, 3, 4 ${nonZero} order by 1, 2, 3, 4`);
  maintained.reportSpans = await q(sql`select owner, dim, span, start::text, key, ${figures}
    from report_span_totals group by 1, 2, 3, 4, 5 ${nonZero} order by 1, 2, 3, 4, 5`);
  maintained.payoutZoneDays =
    await q(sql`select day::text, sum(payouts)::text n, trim_scale(sum(amount))::text amount,
      sum(paid_payouts)::text paid_n, trim_scale(sum(paid_amount))::text paid_amount
    from payout_day_totals group by 1 having sum(payouts) <> 0 or sum(amount) <> 0 order by 1`);
  maintained.queued = await q(sql`select count(*)::text n from report_deltas`);
  const rawFigures =
    sql.raw(`count(*)::text calls, count(*) filter (where l.status = 'approved')::text payable,
    sum(coalesce(l.duration_seconds, l.call_duration * 60))::text dur,
    trim_scale(coalesce(sum(l.payout) filter (where l.status = 'approved'), 0))::text payout,
    trim_scale(coalesce(sum(l.revenue), 0))::text revenue, count(l.revenue)::text rc, sum(l.dispute_count)::text disputes,
    count(*) filter (where l.status = 'approved' and l.revenue is not null)::text rp,
    trim_scale(coalesce(sum(l.payout) filter (where l.status = 'approved' and l.revenue is not null), 0))::text rpay`);
  const zero = '00000000-0000-0000-0000-000000000000';
  const dims = sql`left join campaigns cb on cb.id = l.campaign_id
    cross join lateral (values (${zero}::uuid, 'offer', l.offer_id::text),
    (${zero}::uuid, 'buyer', coalesce(cb.buyer_id::text, '')), (${zero}::uuid, 'campaign', coalesce(l.campaign_id::text, '')),
    (${zero}::uuid, 'publisher', l.publisher_id::text), (${zero}::uuid, 'state', coalesce(l.state, '')),
    (${zero}::uuid, 'status', l.status), (${zero}::uuid, 'all', ''), (l.publisher_id, 'offer', l.offer_id::text),
    (l.publisher_id, 'state', coalesce(l.state, '')), (l.publisher_id, 'all', '')) k(owner, dim, key)`;
  // Days of the network's zone (UTC unless a test sets another).
  const day = sql.raw(`(l.timestamp at time zone '${zone}')::date`);
  const raw: Figures = {
    reportQuarterHours:
      await q(sql`select o.owner, date_bin('15 minutes', l.timestamp, timestamptz '2000-01-01')::text bucket, ${rawFigures}
      from leads l cross join lateral (values (${zero}::uuid), (l.publisher_id)) o(owner) group by 1, 2 order by 1, 2`),
    reportDays: await q(sql`select k.owner, k.dim, ${day}::text as day, k.key, ${rawFigures}
      from leads l ${dims} group by 1, 2, 3, 4 order by 1, 2, 3, 4`),
    reportMonths:
      await q(sql`select k.owner, k.dim, date_trunc('month', ${day})::date::text as month, k.key, ${rawFigures}
      from leads l ${dims} group by 1, 2, 3, 4 order by 1, 2, 3, 4`),
    reportSpans:
      await q(sql`select k.owner, k.dim, p.span, p.start::text as start, k.key, ${rawFigures}
      from leads l ${dims} cross join lateral (values
        ('dekad', date_trunc('month', ${day})::date + least((extract(day from ${day})::int - 1) / 10, 2) * 10),
        ('quarter', date_trunc('quarter', ${day})::date)) p(span, start)
      group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`),
    payoutZoneDays:
      await q(sql`select (date at time zone ${sql.raw(`'${zone}'`)})::date::text as day, count(*)::text n, trim_scale(sum(amount))::text amount,
        count(*) filter (where status = 'paid')::text paid_n,
        trim_scale(coalesce(sum(amount) filter (where status = 'paid'), 0))::text paid_amount
      from payouts group by 1 order by 1`),
    queued: [{ n: '0' }],
  };
  Object.assign(raw, {
    byPublisher:
      await q(sql`select publisher_id, status, count(*)::text n, sum(payout)::text payout, sum(call_duration)::text dur
      from leads group by 1, 2 order by 1, 2`),
    byDay:
      await q(sql`select (timestamp at time zone ${sql.raw(`'${zone}'`)})::date::text as day, status, count(*)::text n, sum(payout)::text payout
      from leads group by 1, 2 order by 1, 2`),
    byPublisherDay:
      await q(sql`select publisher_id, (timestamp at time zone ${sql.raw(`'${zone}'`)})::date::text as day, count(*)::text n, sum(payout)::text payout
      from leads group by 1, 2 order by 1, 2`),
    payoutsByPublisher: await q(sql`select publisher_id, count(*)::text n, sum(amount)::text amount
      from payouts group by 1 order by 1`),
  });
  return { maintained, raw };
}

async function expectTotalsMatch() {
  const { maintained, raw } = await compare();
  expect(maintained).toEqual(raw);
}

describe('maintained totals', () => {
  it('equal the raw figures after a random sequence of inserts, edits and deletes', async () => {
    const rand = prng(12);
    for (let round = 0; round < 8; round++) {
      for (let i = 0; i < 25; i++) await db.execute(randomWrite(rand));
      await expectTotalsMatch();
    }
    const [n] = await rows<{ n: number }>(sql`select count(*)::int n from leads`);
    expect(n!.n).toBeGreaterThan(10);
  });

  it('equal the raw figures after a rolled-back write, a bulk insert and a truncate', async () => {
    await db
      .transaction(async (tx) => {
        await tx.execute(
          sql`insert into leads (publisher_id, offer_id, payout) values (${publishers[0]}, ${offerIds[0]}, 5)`,
        );
        tx.rollback();
      })
      .catch(() => {});
    await expectTotalsMatch();
    // Paid leads' payout lines reference the leads (issue 14): they go with them.
    await db.execute(sql`truncate leads cascade`);
    await expectTotalsMatch();
    await db.execute(sql`insert into leads (publisher_id, offer_id, payout, status, timestamp)
      select (array[${publishers[0]}::uuid, ${publishers[1]}::uuid])[1 + g % 2], ${offerIds[0]}, (g % 100) / 4.0,
             (array['approved','pending','rejected'])[1 + g % 3], now() - (g % 40) * interval '1 day'
      from generate_series(1, 3000) g`);
    await expectTotalsMatch();
    await db.execute(sql`select rebuild_totals()`);
    await expectTotalsMatch();
  });

  it('stay exact under concurrent writers on several connections, without deadlocks', async () => {
    // Ten connections (more than the eight slots, so some share rows) on PostgreSQL; on PGlite
    // the same statements interleave on its one connection.
    const url = database.kind === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
    let extra: Database | undefined;
    if (url) {
      const u = new URL(url);
      const [{ name }] = (await rows<{ name: string }>(sql`select current_database() as name`)) as [
        { name: string },
      ];
      u.pathname = `/${name}`;
      extra = openPostgres(u.toString(), { max: 10 });
    }
    const on = extra?.db ?? db;
    try {
      const failures: unknown[] = [];
      // Folds of the report queue meanwhile, waiting and not, as the background job and the
      // reports do on other connections.
      let writing = true;
      const folding = (async () => {
        for (let i = 0; writing; i++) {
          await on
            .execute(sql`select fold_report_deltas(${i % 2 === 0})`)
            .catch((err: { code?: string }) => {
              failures.push(err);
            });
        }
      })();
      await Promise.all(
        Array.from({ length: 10 }, async (_, w) => {
          const rand = prng(100 + w);
          for (let i = 0; i < 30; i++) {
            // Multi-row inserts touching every publisher in a random order, and whole-group
            // updates, are the statements that would deadlock if upserts were unordered.
            const q =
              rand() < 0.3
                ? sql`insert into leads (publisher_id, offer_id, payout, status)
                    select p, ${offerIds[0]}, 1.25, 'pending'
                    from unnest(${sql.raw(
                      `array[${[...publishers]
                        .sort(() => rand() - 0.5)
                        .map((p) => `'${p}'::uuid`)
                        .join(',')}]`,
                    )}) p`
                : randomWrite(rand);
            await on.execute(q).catch((err: { code?: string }) => {
              // Two writers may pick the same lead: fine. A deadlock (40P01) is not.
              if (err.code === '40P01') failures.push(err);
            });
          }
        }),
      );
      writing = false;
      await folding;
      expect(failures).toEqual([]);
    } finally {
      await extra?.close();
    }
    await expectTotalsMatch();
  }, 120_000); // 300 writes and the folds between them: ~15–30 s on a busy 2-core machine
  it('equal the raw figures after batches of calls (ingest_calls folds once per batch), the balances too', async () => {
    // drizzle/0037: inside ingest_calls the leads' triggers only keep their rows, and the batch
    // folds them at its end; a call whose subtransaction fails must leave nothing behind.
    const [integration] = await rows<{
      id: string;
    }>(sql`insert into integrations (name, key_hash, key_prefix)
      values ('batch fold', md5(random()::text), 'ik_test') returning id`);
    const rand = prng(37);
    const call = (id: string, event: string, seconds: number | null, p = publishers[0]!) => ({
      integration: integration!.id,
      source: integration!.id,
      call_id: id,
      event,
      rank: event === 'incoming' ? 0 : 2,
      billable: 2,
      publisher: p,
      publisher_id: p,
      offer: offerIds[0],
      offer_id: offerIds[0],
      caller: `+1310555${String(Math.floor(rand() * 10_000)).padStart(4, '0')}`,
      seconds,
      minutes: seconds === null ? 0 : Math.ceil(seconds / 60),
      payout: (Math.floor(rand() * 5000) / 100).toFixed(2),
      state: 'CA',
      tags: null,
      status: event === 'completed' ? 'approved' : 'pending',
    });
    const send = (batch: unknown[]) =>
      rows<{ out_failed: string | null }>(
        sql`select out_failed from ingest_calls(${JSON.stringify(batch)}::jsonb)`,
      );
    for (let round = 0; round < 4; round++) {
      const batch: unknown[] = [];
      for (let i = 0; i < 12; i++) {
        const id = `fold-${round}-${i}`;
        const pub = publishers[i % publishers.length]!;
        batch.push(call(id, 'incoming', null, pub));
        // Some calls end in the same batch, others in the next one.
        if (i % 3 === 0) batch.push(call(id, 'completed', 30 + i * 20, pub));
        if (round > 0 && i % 3 === 1)
          batch.push(call(`fold-${round - 1}-${i}`, 'completed', 200, pub));
      }
      // A call that fails in its subtransaction: none of its rows may be folded.
      batch.push({ ...call(`fold-${round}-bad`, 'completed', 90), seconds: 'x' });
      const answers = await send(batch);
      expect(answers.filter((a) => a.out_failed !== null)).toHaveLength(1);
      await expectTotalsMatch();
      const balances = await rows<{ publisher_id: string; earned: string; raw: string }>(sql`
        select p.id publisher_id, trim_scale(coalesce(b.earned, 0))::text earned,
               trim_scale(coalesce((select sum(payout) from leads l where l.publisher_id = p.id and l.status = 'approved'), 0))::text raw
        from unnest(${sql.raw(`array[${publishers.map((x) => `'${x}'::uuid`).join(',')}]`)}) p(id)
        left join publisher_balances b on b.publisher_id = p.id`);
      for (const b of balances) expect(b.earned).toBe(b.raw);
    }
    const [approved] = await rows<{ n: number }>(
      sql`select count(*)::int n from leads where integration_id = ${integration!.id} and status = 'approved'`,
    );
    expect(approved!.n).toBeGreaterThan(10);
    // The calls were delivered to offer 0's campaign, and its billed ones carry its price: the
    // buyer and campaign rows above held them.
    const [billed] = await rows<{ n: number }>(
      sql`select count(*)::int n from leads where integration_id = ${integration!.id}
        and campaign_id = ${campaignIds[0]!} and billed_amount = 12.50`,
    );
    expect(billed!.n).toBeGreaterThan(5);
  });
});

describe('reads of the totals', () => {
  it('the overview cards and chart equal the raw SQL figures', async () => {
    for (const publisherId of publishers) {
      const o = await getOverview({ db, publisherId });
      const [raw] = await rows<{ n: number; earnings: string | null; paid: string | null }>(
        sql`select (select count(*)::int from leads where publisher_id = ${publisherId}) n,
                   (select sum(payout)::text from leads where publisher_id = ${publisherId} and status = 'approved') earnings,
                   (select sum(amount)::text from payouts where publisher_id = ${publisherId} and status = 'paid') paid`,
      );
      expect(o.total_leads).toBe(raw!.n);
      // Issue 27: Total Earnings = approved leads' payouts; Pending Payouts = earned − paid
      // (marked paid): a payout recorded in a run is still pending for the publisher.
      expect(o.total_earnings).toBe(Number(raw!.earnings ?? 0));
      expect(o.pending_payouts).toBe(
        Math.round((Number(raw!.earnings ?? 0) - Number(raw!.paid ?? 0)) * 100) / 100,
      );
      const daily = await rows<{ day: string; n: number; earnings: string }>(
        sql`select (timestamp at time zone 'UTC')::date::text as day, count(*)::int n,
                   coalesce(sum(payout) filter (where status = 'approved'), 0)::text earnings
            from leads where publisher_id = ${publisherId}
              and timestamp >= (now() at time zone 'UTC')::date - 29 group by 1`,
      );
      const byDay = new Map(daily.map((d) => [d.day, d]));
      expect(o.daily).toHaveLength(30);
      for (const d of o.daily) {
        expect(d.leads, d.date).toBe(byDay.get(d.date)?.n ?? 0);
        expect(d.earnings, d.date).toBe(Number(byDay.get(d.date)?.earnings ?? 0));
      }
      // Recent Activity still lists the newest leads first.
      const [newest] = await rows<{ at: Date | string }>(
        sql`select max(timestamp) as at from leads where publisher_id = ${publisherId}`,
      );
      const firstLead = o.recent_activity.find((a) => a.type === 'lead');
      if (newest?.at) expect(Date.parse(firstLead!.at)).toBe(new Date(newest.at).getTime());
    }
  });

  it('the admin cards and daily chart equal the raw SQL figures', async () => {
    const stats = await getStats({ db });
    // Issue 27: Total Payouts is what was marked paid; recorded runs are shown apart.
    const [paid] = await rows<{ s: string | null }>(
      sql`select sum(amount)::text s from payouts where status = 'paid'`,
    );
    expect(stats.total_payouts).toBe(Number(paid!.s ?? 0));
    const { days } = await getDailyStats({ db, days: 30 });
    const raw = await rows<{ day: string; n: number }>(
      sql`select (timestamp at time zone 'UTC')::date::text as day, count(*)::int n from leads group by 1`,
    );
    const rawPay = await rows<{ day: string; s: string }>(
      sql`select (date at time zone 'UTC')::date::text as day, sum(amount)::text s from payouts group by 1`,
    );
    for (const d of days) {
      expect(d.leads, d.date).toBe(raw.find((r) => r.day === d.date)?.n ?? 0);
      expect(d.payouts, d.date).toBe(Number(rawPay.find((r) => r.day === d.date)?.s ?? 0));
    }
  });

  it('exactLeadCount equals count(*) for the filters it answers, and is undefined otherwise', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);
    const p = publishers[0]!;
    const answered: LeadCountFilter[] = [
      {},
      { status: 'approved' },
      { status: 'pending' },
      { publisher_id: p },
      { publisher_id: p, status: 'rejected' },
      { publisher_id: publishers[3]!, status: 'approved' },
      { from: daysAgo(3) },
      { to: daysAgo(2) },
      { from: daysAgo(30), to: today },
      { from: daysAgo(2), to: daysAgo(2), status: 'pending' },
      { publisher_id: p, from: daysAgo(4), to: daysAgo(1) },
      { publisher_id: '00000000-0000-4000-8000-000000000000' },
    ];
    for (const f of answered) {
      const [raw] = await rows<{ n: number }>(
        sql`select count(*)::int n from leads where true
          ${f.publisher_id ? sql`and publisher_id = ${f.publisher_id}` : sql``}
          ${f.status ? sql`and status = ${f.status}` : sql``}
          ${f.from ? sql`and timestamp >= ${f.from.length === 10 ? `${f.from}T00:00:00Z` : f.from}::timestamptz` : sql``}
          ${f.to ? sql`and timestamp < ${f.to.length === 10 ? `${f.to}T00:00:00Z` : f.to}::timestamptz + ${f.to.length === 10 ? '1 day' : '1 millisecond'}::interval` : sql``}`,
      );
      expect(await exactLeadCount(db, f), JSON.stringify(f)).toBe(raw!.n);
    }
    const notAnswered: LeadCountFilter[] = [
      { offer_id: offerIds[0]! },
      { publisher_id: p, offer_id: offerIds[0]! },
      { from: `${daysAgo(3)}T12:00:00Z` },
      { to: `${daysAgo(1)}T12:00:00Z` },
      { to: `${daysAgo(1)}T00:00:00Z` },
      // A date-time is not a whole day of the zone, even at midnight UTC.
      { from: `${daysAgo(3)}T00:00:00.000Z`, to: `${daysAgo(1)}T23:59:59.999Z` },
      { publisher_id: p, status: 'approved', from: daysAgo(3) },
    ];
    for (const f of notAnswered) {
      expect(await exactLeadCount(db, f), JSON.stringify(f)).toBeUndefined();
    }
  });

  it('maintainedLeadTotals splits leads and payout by status, as the raw rows do', async () => {
    const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);
    const p = publishers[0]!;
    const filters: LeadCountFilter[] = [
      {},
      { status: 'rejected' },
      { publisher_id: p },
      { publisher_id: p, status: 'approved' },
      { from: daysAgo(3), to: daysAgo(1) },
      { from: daysAgo(2), to: daysAgo(2), status: 'pending' },
    ];
    for (const f of filters) {
      const raw = await rows<{ status: string; n: number; payout: string }>(
        sql`select status, count(*)::int n, sum(payout)::text payout from leads where true
          ${f.publisher_id ? sql`and publisher_id = ${f.publisher_id}` : sql``}
          ${f.status ? sql`and status = ${f.status}` : sql``}
          ${f.from ? sql`and timestamp >= ${`${f.from}T00:00:00Z`}::timestamptz` : sql``}
          ${f.to ? sql`and timestamp < ${`${f.to}T00:00:00Z`}::timestamptz + interval '1 day'` : sql``}
          group by status`,
      );
      const got = await maintainedLeadTotals(db, f);
      const want = Object.fromEntries(
        STATUSES.map((st) => {
          const r = raw.find((x) => x.status === st);
          return [st, { leads: r?.n ?? 0, cents: Math.round(Number(r?.payout ?? 0) * 100) }];
        }),
      );
      const cents = (v: string) => Math.round(Number(v) * 100);
      expect(got?.byStatus, JSON.stringify(f)).not.toBeNull();
      const byStatus = got!.byStatus!;
      expect(
        Object.fromEntries(
          STATUSES.map((st) => [
            st,
            { leads: byStatus[st].leads, cents: cents(byStatus[st].payout) },
          ]),
        ),
        JSON.stringify(f),
      ).toEqual(want);
      expect(got!.leads).toBe(raw.reduce((n, r) => n + r.n, 0));
    }
    // A publisher and a range: the daily aggregate has no status, the count alone.
    const range = await maintainedLeadTotals(db, { publisher_id: p, from: daysAgo(4) });
    expect(range?.byStatus).toBeNull();
    expect(range?.leads).toBe(await exactLeadCount(db, { publisher_id: p, from: daysAgo(4) }));
  });

  it('Recent Activity shows a rejected lead at $0.00 with what it would have paid', async () => {
    const publisherId = (await buildPublisher(db)).id;
    const at = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
    await db.execute(sql`insert into leads (publisher_id, offer_id, payout, status, call_duration, timestamp)
      values (${publisherId}, ${offerIds[0]}, 45, 'rejected', 3, ${at(1)}::timestamptz),
             (${publisherId}, ${offerIds[0]}, 12.5, 'approved', 4, ${at(2)}::timestamptz)`);
    const o = await getOverview({ db, publisherId });
    const [rejected, approved] = o.recent_activity.filter((a) => a.type === 'lead');
    expect(rejected!.description).toMatch(
      /: \$0\.00 \(would have paid \$45\.00\), 3 min, rejected\.$/,
    );
    expect(approved!.description).toMatch(/: \$12\.50, 4 min, approved\.$/);
    // The cards count the rejected lead, and earn only the approved one.
    expect(o.total_leads).toBe(2);
    expect(o.total_earnings).toBe(12.5);
  });

  it("count days of the network's zone: a change of zone recounts them, and ranges of bare days are answered in any zone", async () => {
    const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);
    await ensureSettings(db);
    // Leads on both sides of midnight UTC, which is 05:30 in Kolkata: some change their day.
    await db.execute(sql`insert into leads (publisher_id, offer_id, payout, status, timestamp)
      select ${publishers[1]}, ${offerIds[0]}, 3.25, (array['approved','pending','rejected'])[1 + g % 3],
             date_trunc('day', now()) - (g % 4) * interval '1 day' + (g % 9 - 4) * interval '1 hour'
      from generate_series(1, 60) g`);
    try {
      for (const tz of ['Asia/Kolkata', 'America/Los_Angeles']) {
        await db.execute(sql`update settings set timezone = ${tz} where id = 1`);
        zone = tz;
        await expectTotalsMatch();
        // A lead written while the zone is set lands on its zone day at once.
        await db.execute(sql`insert into leads (publisher_id, offer_id, payout, timestamp)
          values (${publishers[1]}, ${offerIds[0]}, 1, date_trunc('day', now()) + interval '30 minutes')`);
        await expectTotalsMatch();
        const p = publishers[1]!;
        const filters: LeadCountFilter[] = [
          { from: daysAgo(3), to: daysAgo(1) },
          { from: daysAgo(2), to: daysAgo(2), status: 'approved' },
          { publisher_id: p, from: daysAgo(4), to: daysAgo(0) },
        ];
        for (const f of filters) {
          const [raw] = await rows<{ n: number }>(
            sql`select count(*)::int n from leads where true
              ${f.publisher_id ? sql`and publisher_id = ${f.publisher_id}` : sql``}
              ${f.status ? sql`and status = ${f.status}` : sql``}
              and timestamp >= (${f.from}::date)::timestamp at time zone ${tz}
              and timestamp < (${f.to}::date + 1)::timestamp at time zone ${tz}`,
          );
          expect(await exactLeadCount(db, f), `${tz} ${JSON.stringify(f)}`).toBe(raw!.n);
        }
      }
    } finally {
      await db.execute(sql`update settings set timezone = 'UTC' where id = 1`);
      zone = 'UTC';
    }
    await expectTotalsMatch();
  });
});
