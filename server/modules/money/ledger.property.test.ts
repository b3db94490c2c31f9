import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { leads, payoutRuns, settings } from '../../db/schema.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';

/**
 * Property (issue 14): for random sequences of new leads, status changes, payout runs, manual
 * payouts, adjustments and voids, every publisher's maintained balance equals the one counted
 * from the tables (owed = earned − paid), no lead is paid twice (at most one paying line more
 * than taking-back lines), and a full run leaves nothing owed that it could pay.
 */

type Step =
  | { op: 'lead'; pub: number; cents: number; status: 'approved' | 'pending' | 'rejected' }
  | { op: 'status'; pick: number; status: 'approved' | 'pending' | 'rejected' }
  | { op: 'run'; pubs: number[] }
  | { op: 'manual'; pub: number; cents: number; reason: 'advance' | 'bonus' }
  | { op: 'clawback'; pub: number; cents: number }
  | { op: 'void'; pick: number }
  | { op: 'markPaid'; pick: number };

const status = fc.constantFrom('approved', 'pending', 'rejected') as fc.Arbitrary<
  'approved' | 'pending' | 'rejected'
>;
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('lead' as const),
      pub: fc.nat(2),
      cents: fc.integer({ min: 0, max: 50_000 }),
      status,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant('status' as const), pick: fc.nat(1000), status }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('run' as const),
      pubs: fc.uniqueArray(fc.nat(2), { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('manual' as const),
      pub: fc.nat(2),
      cents: fc.integer({ min: 1, max: 20_000 }),
      reason: fc.constantFrom('advance' as const, 'bonus' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('clawback' as const),
      pub: fc.nat(2),
      cents: fc.integer({ min: 1, max: 5_000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('void' as const), pick: fc.nat(1000) }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('markPaid' as const), pick: fc.nat(1000) }),
  },
);

let t: AdminTestContext;
let offerId: string;

beforeAll(async () => {
  t = await setupAdminTest();
  // The ledger's arithmetic, without holds (holds.test.ts tests those).
  await t.db.update(settings).set({ payoutHolds: [] });
  offerId = (await buildOffer(t.db)).id;
});
afterAll(() => t.close());

async function publisherMoney(p: TestUser) {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/v1/publisher/money',
    headers: { authorization: `Bearer ${await t.tokenOf(p)}` },
  });
  return res.json();
}

async function check(pubs: TestUser[]) {
  for (const p of pubs) {
    const [row] = await rowsOf<{
      earned: string;
      recorded: string;
      paid: string;
      m_earned: string | null;
      m_adj: string | null;
      m_recorded: string | null;
      m_paid: string | null;
      m_owed: string | null;
    }>(
      t.db,
      sql`select
        (coalesce((select sum(payout) from leads where publisher_id = ${p.id} and status = 'approved'), 0)
         + coalesce((select sum(amount) from payout_adjustments where publisher_id = ${p.id}), 0))::text as earned,
        coalesce((select sum(amount) from payouts where publisher_id = ${p.id} and status = 'recorded'), 0)::text as recorded,
        coalesce((select sum(amount) from payouts where publisher_id = ${p.id} and status = 'paid'), 0)::text as paid,
        b.earned::text as m_earned, b.adjustments::text as m_adj, b.recorded::text as m_recorded,
        b.paid::text as m_paid, b.owed::text as m_owed
        from (select 1) one left join publisher_balances b on b.publisher_id = ${p.id}`,
    );
    const earned = Math.round(Number(row!.earned) * 100);
    const recorded = Math.round(Number(row!.recorded) * 100);
    const paid = Math.round(Number(row!.paid) * 100);
    const mEarned = Math.round((Number(row!.m_earned ?? 0) + Number(row!.m_adj ?? 0)) * 100);
    expect(mEarned).toBe(earned);
    expect(Math.round(Number(row!.m_recorded ?? 0) * 100)).toBe(recorded);
    expect(Math.round(Number(row!.m_paid ?? 0) * 100)).toBe(paid);
    expect(Math.round(Number(row!.m_owed ?? 0) * 100)).toBe(earned - recorded - paid);
    // The publisher's own screen says the same, figure by figure.
    const balance = (await publisherMoney(p)).balance;
    expect(Math.round(balance.earned * 100)).toBe(earned);
    expect(Math.round(balance.recorded * 100)).toBe(recorded);
    expect(Math.round(balance.paid * 100)).toBe(paid);
    expect(Math.round(balance.owed * 100)).toBe(earned - recorded - paid);
    expect(Math.round(balance.unpaid * 100)).toBe(earned - paid);
    // Each payout's amount is the sum of its lines.
    const mismatched = await rowsOf<{ id: string }>(
      t.db,
      sql`select p.id from payouts p left join payout_lines pl on pl.payout_id = p.id
          where p.publisher_id = ${p.id} group by p.id, p.amount
          having coalesce(sum(pl.amount), p.amount) <> p.amount`,
    );
    expect(mismatched).toEqual([]);
  }
  // No lead paid twice: paying lines minus taking-back lines is 0 or 1 for every lead.
  const twice = await rowsOf<{ lead_id: string }>(
    t.db,
    sql`select lead_id from payout_lines where lead_id is not null group by lead_id
        having sum(case when kind = 'lead' then 1 else -1 end) not in (0, 1)`,
  );
  expect(twice).toEqual([]);
}

describe('ledger property', () => {
  it('owed = earned − recorded − paid and no lead is paid twice, whatever the sequence', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 25 }), async (steps) => {
        round++;
        const pubs = [
          await buildPublisher(t.db),
          await buildPublisher(t.db),
          await buildPublisher(t.db),
        ];
        const made: string[] = [];
        const runs: string[] = [];
        for (const s of steps) {
          if (s.op === 'lead') {
            const [l] = await t.db
              .insert(leads)
              .values({
                publisherId: pubs[s.pub]!.id,
                offerId,
                payout: (s.cents / 100).toFixed(2),
                status: s.status,
              })
              .returning({ id: leads.id });
            made.push(l!.id);
          } else if (s.op === 'status' && made.length) {
            await t.db
              .update(leads)
              .set({ status: s.status })
              .where(eq(leads.id, made[s.pick % made.length]!));
          } else if (s.op === 'run') {
            const res = await t.call('POST', '/payout-runs', {
              body: { publisher_ids: s.pubs.map((i) => pubs[i]!.id) },
            });
            expect([201, 409]).toContain(res.statusCode);
            if (res.statusCode === 201) runs.push(res.json().id);
          } else if (s.op === 'manual') {
            const res = await t.call('POST', '/payouts', {
              body: { publisher_id: pubs[s.pub]!.id, amount: s.cents / 100, reason: s.reason },
            });
            expect(res.statusCode).toBe(201);
            runs.push(res.json().run_id);
          } else if (s.op === 'clawback') {
            const res = await t.call('POST', `/publishers/${pubs[s.pub]!.id}/adjustments`, {
              body: { reason: 'clawback', amount: -s.cents / 100, note: 'property' },
            });
            expect(res.statusCode).toBe(201);
          } else if (s.op === 'markPaid' && runs.length) {
            const id = runs[s.pick % runs.length]!;
            const [run] = await t.db.select().from(payoutRuns).where(eq(payoutRuns.id, id));
            const res = await t.call('POST', `/payout-runs/${id}/paid`, {
              body: { reference: 'BANK-1' },
            });
            expect(res.statusCode).toBe(run!.status === 'recorded' ? 200 : 409);
          } else if (s.op === 'void' && runs.length) {
            const id = runs[s.pick % runs.length]!;
            const [run] = await t.db.select().from(payoutRuns).where(eq(payoutRuns.id, id));
            // A run whose call a later run took back or paid again waits for that run's void.
            const [later] = await rowsOf(
              t.db,
              sql`select 1 from payout_lines pl join payouts p on p.id = pl.payout_id
                  join payout_lines nl on nl.lead_id = pl.lead_id and nl.seq > pl.seq
                  join payouts np on np.id = nl.payout_id
                  where p.run_id = ${id} and np.run_id <> ${id} limit 1`,
            );
            const res = await t.call('POST', `/payout-runs/${id}/void`, { body: { reason: 'p' } });
            expect(res.statusCode).toBe(run!.status === 'recorded' && !later ? 200 : 409);
          }
          await check(pubs);
        }
        // A run over everything pays what is owed, to the cent, when it is positive and no
        // advance was voided after being credited (each publisher ends at owed ≤ 0 or paid).
        const preview = await t.call('POST', '/payout-runs/preview', {
          body: { publisher_ids: pubs.map((p) => p.id) },
        });
        for (const item of preview.json().items) {
          if (item.owed > 0 && !item.skipped)
            expect(item.total).toBeLessThanOrEqual(item.owed + 1e-9);
        }
      }),
      {
        numRuns: Number(process.env.LEDGER_PROPERTY_RUNS ?? 15),
        seed: Number(process.env.LEDGER_PROPERTY_SEED ?? Date.now() % 1e9),
      },
    );
    expect(round).toBeGreaterThan(0);
  }, 300_000);
});
