import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { auditLog, leads, mailOutbox, payoutLines, payouts, settings } from '../../db/schema.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { callAs } from '../../test/call-as.ts';
import { buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';
import { pdfText } from '../../test/pdf-text.ts';

/**
 * The publisher ledger (issue 14) through the API: balances, runs, reversals, voids, the
 * threshold, the currency, statements and their totals, payment details, and isolation.
 */

let t: AdminTestContext;
let offer: Awaited<ReturnType<typeof buildOffer>>;
let offer2: Awaited<ReturnType<typeof buildOffer>>;

beforeAll(async () => {
  t = await setupAdminTest();
  // These tests are about the ledger's arithmetic: no hold applies (holds.test.ts tests them).
  await t.db.update(settings).set({ payoutHolds: [] });
  offer = await buildOffer(t.db, { title: 'Solar Calls', payout: '25.00' });
  offer2 = await buildOffer(t.db, { title: 'Home Insurance', payout: '40.00' });
});
afterAll(() => t.close());

/** A payout run for this one publisher: the run's JSON and the publisher's payout row. */
async function payoutRunOf(pub: { id: string }) {
  const run = (await t.call('POST', '/payout-runs', { body: { publisher_ids: [pub.id] } })).json();
  const [p] = await t.db.select().from(payouts).where(eq(payouts.runId, run.id));
  return { run, p };
}

async function lead(
  pub: TestUser,
  payout: string,
  status: 'approved' | 'pending' | 'rejected' = 'approved',
  at = '2026-11-02T12:00:00Z',
  o = offer,
) {
  const [row] = await t.db
    .insert(leads)
    .values({ publisherId: pub.id, offerId: o.id, payout, status, timestamp: new Date(at) })
    .returning();
  return row!;
}

async function pubCall(pub: TestUser, method: 'GET' | 'PUT', url: string, body?: unknown) {
  return callAs(t.app, await t.tokenOf(pub), method, `/api/v1/publisher${url}`, { body });
}

const balanceOf = async (pub: TestUser) => (await pubCall(pub, 'GET', '/money')).json().balance;

/** owed = earned − paid, recomputed from the tables themselves (not the maintained rows). */
async function recomputed(pubId: string) {
  const [r] = await rowsOf<{ earned: string; paid: string }>(
    t.db,
    sql`select
      (coalesce((select sum(payout) from leads where publisher_id = ${pubId} and status = 'approved'), 0)
       + coalesce((select sum(amount) from payout_adjustments where publisher_id = ${pubId}), 0))::text as earned,
      coalesce((select sum(amount) from payouts where publisher_id = ${pubId}), 0)::text as paid`,
  );
  return {
    earned: Number(r!.earned),
    paid: Number(r!.paid),
    owed: Number(r!.earned) - Number(r!.paid),
  };
}

describe('balances', () => {
  it('earned = approved leads, pending review apart, owed = earned − paid', async () => {
    const pub = await buildPublisher(t.db);
    await lead(pub, '25.00');
    await lead(pub, '40.10', 'approved', '2026-11-03T12:00:00Z', offer2);
    await lead(pub, '12.00', 'pending');
    await lead(pub, '99.00', 'rejected');
    expect(await balanceOf(pub)).toEqual({
      earned: 65.1,
      pending_review: 12,
      pending_calls: 1,
      rejected_calls: 1,
      owed: 65.1,
      recorded: 0,
      paid: 0,
      unpaid: 65.1,
      currency: 'USD',
    });
    const overview = (await pubCall(pub, 'GET', '/overview')).json();
    expect(overview.total_earnings).toBe(65.1);
    expect(overview.pending_payouts).toBe(65.1);
    // Admin → Balances lists the publisher with the same figures.
    const list = await t.call('GET', '/balances', { query: { q: pub.email } });
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toEqual([
      expect.objectContaining({ publisher_id: pub.id, earned: 65.1, owed: 65.1, paid: 0 }),
    ]);
    expect(list.json()).toMatchObject({ currency: 'USD', min_payout: 50 });
  });

  it('pages the balances by owed with a cursor, exactly counted', async () => {
    const res = await t.call('GET', '/balances', { query: { page_size: '1', sort: 'owed' } });
    const body = res.json();
    expect(body.total_exact).toBe(true);
    expect(body.items).toHaveLength(1);
    if (body.next_cursor) {
      const next = await t.call('GET', '/balances', {
        query: { page_size: '1', sort: 'owed', after: body.next_cursor },
      });
      expect(next.statusCode).toBe(200);
      expect(next.json().items[0].owed).toBeLessThanOrEqual(body.items[0].owed);
    }
    const bad = await t.call('GET', '/balances', { query: { sort: 'nope' } });
    expect(bad.statusCode).toBe(400);
  });
});

describe('payout runs', () => {
  it('previews, then confirms in one transaction with each payout linked to its leads', async () => {
    const a = await buildPublisher(t.db, { name: 'Run Alice' });
    const b = await buildPublisher(t.db, { name: 'Run Bob' });
    const l1 = await lead(a, '25.00', 'approved', '2026-11-02T12:00:00Z');
    await lead(a, '25.00', 'approved', '2026-11-20T12:00:00Z'); // outside the period
    await lead(b, '40.00', 'approved', '2026-11-05T12:00:00Z', offer2);
    const selection = {
      publisher_ids: [a.id, b.id],
      period_from: '2026-11-01',
      period_to: '2026-11-15',
    };
    const preview = await t.call('POST', '/payout-runs/preview', { body: selection });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({ total: 65, payouts: 2, currency: 'USD' });
    const confirmed = await t.call('POST', '/payout-runs', { body: selection });
    expect(confirmed.statusCode).toBe(201);
    const run = confirmed.json();
    expect(run).toMatchObject({ status: 'recorded', total: 65, payouts: 2, kind: 'run' });
    const lines = await t.db.select().from(payoutLines).where(eq(payoutLines.leadId, l1.id));
    expect(lines).toHaveLength(1);
    expect(await balanceOf(a)).toMatchObject({ earned: 50, recorded: 25, owed: 25 });
    expect(await balanceOf(b)).toMatchObject({ earned: 40, recorded: 40, owed: 0 });
    // Confirming the same selection again pays nothing twice.
    const again = await t.call('POST', '/payout-runs', { body: selection });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toMatch(/Nothing to pay/);
    // The CSV for the bank: one row per publisher.
    const csv = await t.call('GET', `/payout-runs/${run.id}/export.csv`);
    expect(csv.statusCode).toBe(200);
    const rows = csv.body.trim().split('\r\n');
    expect(rows[0]).toBe(
      'publisher_name,publisher_email,payment_method,payment_account,tax_form_status,amount,currency,reference,payout_id,holder_name,routing_number,account_type',
    );
    expect(rows.slice(1).sort()).toEqual(
      [
        expect.stringContaining(`Run Alice,${a.email},,,not_submitted,25.00,USD,`),
        expect.stringContaining(`Run Bob,${b.email},,,not_submitted,40.00,USD,`),
      ].sort(),
    );
    expect(rows).toHaveLength(3);
    // Marked paid with a reference: the payouts carry it.
    const paid = await t.call('POST', `/payout-runs/${run.id}/paid`, {
      body: { reference: 'ACH-991' },
    });
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'paid', reference: 'ACH-991' });
    const pays = (await pubCall(a, 'GET', '/payouts')).json().items;
    expect(pays[0]).toMatchObject({ amount: 25, status: 'paid', reference: 'ACH-991' });
    // Paid now, no longer recorded: what the publisher is owed did not move.
    expect(await balanceOf(a)).toMatchObject({ earned: 50, recorded: 0, paid: 25, owed: 25 });
    expect(
      (await t.call('POST', `/payout-runs/${run.id}/void`, { body: { reason: 'x' } })).statusCode,
    ).toBe(409);
    expect(await recomputed(a.id)).toEqual({ earned: 50, paid: 25, owed: 25 });
  });

  it('pays a lead once when two runs are confirmed at the same instant', async () => {
    const pub = await buildPublisher(t.db);
    for (let i = 0; i < 20; i++) await lead(pub, '3.33');
    const body = { publisher_ids: [pub.id] };
    const results = await Promise.all([
      t.call('POST', '/payout-runs', { body }),
      t.call('POST', '/payout-runs', { body }),
      t.call('POST', '/payout-runs', { body }),
    ]);
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 409, 409]);
    const [n] = await rowsOf<{ n: number; leads: number }>(
      t.db,
      sql`select count(*)::int as n, count(distinct lead_id)::int as leads from payout_lines where publisher_id = ${pub.id}`,
    );
    expect(n).toEqual({ n: 20, leads: 20 });
    expect(await balanceOf(pub)).toMatchObject({ earned: 66.6, recorded: 66.6, owed: 0 });
  });

  it('takes back a paid lead rejected later on the next run, and the statement adds up', async () => {
    const pub = await buildPublisher(t.db);
    const paidLead = await lead(pub, '25.00');
    await t.call('POST', '/payout-runs', { body: { publisher_ids: [pub.id] } });
    await t.db.update(leads).set({ status: 'rejected' }).where(eq(leads.id, paidLead.id));
    expect(await balanceOf(pub)).toMatchObject({ earned: 0, recorded: 25, owed: -25 });
    // Only the reversal is due: nothing to pay, it waits.
    const waiting = await t.call('POST', '/payout-runs/preview', {
      body: { publisher_ids: [pub.id] },
    });
    expect(waiting.json().items[0]).toMatchObject({ total: -25, reversals: 1 });
    expect(waiting.json().items[0].skipped).toMatch(/reversals/);
    await lead(pub, '40.00', 'approved', '2026-11-04T09:00:00Z', offer2);
    await lead(pub, '40.00', 'approved', '2026-11-04T10:00:00Z', offer2);
    const run = await t.call('POST', '/payout-runs', { body: { publisher_ids: [pub.id] } });
    expect(run.json()).toMatchObject({ total: 55 });
    expect(await balanceOf(pub)).toMatchObject({ earned: 80, recorded: 80, owed: 0 });
    const [p] = await t.db
      .select()
      .from(payouts)
      .where(and(eq(payouts.publisherId, pub.id), eq(payouts.runId, run.json().id)));
    const st = await t.call('GET', `/payouts/${p!.id}/statement`);
    expect(st.statusCode).toBe(200);
    const statement = st.json();
    // One line per call, then the reversal (statements.test.ts checks the rest of the layout).
    expect(statement.lines).toEqual([
      expect.objectContaining({
        kind: 'lead',
        day: '2026-11-04',
        offer: 'Home Insurance',
        amount: 40,
      }),
      expect.objectContaining({
        kind: 'lead',
        day: '2026-11-04',
        offer: 'Home Insurance',
        amount: 40,
      }),
      expect.objectContaining({ kind: 'reversal', offer: 'Solar Calls', amount: -25 }),
    ]);
    expect(statement.sections).toEqual([
      { kind: 'lead', title: 'Calls', count: 2, subtotal: 80 },
      { kind: 'reversal', title: 'Reversals', count: 1, subtotal: -25 },
    ]);
    const sum = statement.lines.reduce((s: number, l: { amount: number }) => s + l.amount * 100, 0);
    expect(statement.total * 100).toBe(sum);
    expect(statement.total).toBe(55);
    // CSV: the same lines and the total.
    const csv = await t.call('GET', `/payouts/${p!.id}/statement.csv`);
    expect(csv.body).toContain(',call,2026-11-04,Home Insurance,');
    expect(csv.body).toContain(',total,,,,,"2 calls, 1 reversal",55.00,USD');
    // PDF: opened and read.
    const pdf = await t.call('GET', `/payouts/${p!.id}/statement.pdf`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const [text] = await pdfText(pdf.rawPayload);
    for (const part of [
      'Payout statement',
      'Home Insurance',
      '$40.00',
      '$80.00',
      '-$25.00',
      '$55.00',
      'support@example.com',
    ]) {
      expect(text).toContain(part);
    }
  });

  it('a paid lead whose payout changes is taken back and paid again at the new amount', async () => {
    const pub = await buildPublisher(t.db);
    const l = await lead(pub, '20.00');
    await t.call('POST', '/payout-runs', { body: { publisher_ids: [pub.id] } });
    await t.db.update(leads).set({ payout: '26.50' }).where(eq(leads.id, l.id));
    expect(await balanceOf(pub)).toMatchObject({ earned: 26.5, recorded: 20, owed: 6.5 });
    const run = await t.call('POST', '/payout-runs', { body: { publisher_ids: [pub.id] } });
    expect(run.json().total).toBe(6.5);
    const lines = await t.db
      .select()
      .from(payoutLines)
      .where(eq(payoutLines.leadId, l.id))
      .orderBy(payoutLines.seq);
    expect(lines.map((x) => [x.kind, x.seq, x.amount])).toEqual([
      ['lead', 1, '20.00'],
      ['reversal', 2, '-20.00'],
      ['lead', 3, '26.50'],
    ]);
    expect(await balanceOf(pub)).toMatchObject({ owed: 0 });
  });

  it('a confirmation retried with its Idempotency-Key creates the run once', async () => {
    const pub = await buildPublisher(t.db);
    await lead(pub, '11.00');
    const headers = { 'idempotency-key': `run-${pub.id}` };
    const body = { publisher_ids: [pub.id] };
    const first = await t.call('POST', '/payout-runs', { body, headers });
    const again = await t.call('POST', '/payout-runs', { body, headers });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.json().id);
    expect(await balanceOf(pub)).toMatchObject({ recorded: 11, owed: 0 });
  });

  it('voiding a recorded run releases its leads and restores the balance', async () => {
    const pub = await buildPublisher(t.db);
    await lead(pub, '30.00');
    const run = (
      await t.call('POST', '/payout-runs', { body: { publisher_ids: [pub.id] } })
    ).json();
    expect(await balanceOf(pub)).toMatchObject({ owed: 0, recorded: 30 });
    const bad = await t.call('POST', `/payout-runs/${run.id}/void`, { body: {} });
    expect(bad.statusCode).toBe(400);
    const voided = await t.call('POST', `/payout-runs/${run.id}/void`, {
      body: { reason: 'Wrong bank file' },
    });
    expect(voided.statusCode).toBe(200);
    expect(voided.json()).toMatchObject({ status: 'void', total: 30 });
    expect(await balanceOf(pub)).toMatchObject({ owed: 30, recorded: 0 });
    const again = await t.call('POST', '/payout-runs', { body: { publisher_ids: [pub.id] } });
    expect(again.json()).toMatchObject({ total: 30 });
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payout_run.void'), eq(auditLog.entityId, run.id)));
    expect(audit?.after).toMatchObject({ reason: 'Wrong bank file' });
  });

  it('refuses to void a run whose paid call a later run took back, until that run is void', async () => {
    const pub = await buildPublisher(t.db);
    const paid = await lead(pub, '45.99');
    const first = (
      await t.call('POST', '/payout-runs', { body: { publisher_ids: [pub.id] } })
    ).json();
    // Back to review: the next run takes the 45.99 back.
    await t.db.update(leads).set({ status: 'pending' }).where(eq(leads.id, paid.id));
    await lead(pub, '60.00', 'approved', '2026-11-04T09:00:00Z', offer2);
    const second = (
      await t.call('POST', '/payout-runs', { body: { publisher_ids: [pub.id] } })
    ).json();
    expect(second).toMatchObject({ total: 14.01 });
    // Voided first, the first run would leave the reversal taking back money never paid.
    const refused = await t.call('POST', `/payout-runs/${first.id}/void`, {
      body: { reason: 'Wrong bank file' },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/A later run .* Void that run first/);
    expect(await balanceOf(pub)).toMatchObject({ recorded: 60, owed: 0 });
    // Latest first: both void, and the balance is what the calls earn.
    for (const run of [second, first]) {
      const res = await t.call('POST', `/payout-runs/${run.id}/void`, { body: { reason: 'x' } });
      expect(res.statusCode).toBe(200);
    }
    expect(await balanceOf(pub)).toMatchObject({ earned: 60, recorded: 0, owed: 60 });
  });

  it('"all owed above threshold" pays approved publishers owed at least the minimum, and lists a blocked one as held', async () => {
    const set = await t.call('PATCH', '/settings', {
      body: { min_payout: 1000, payout_holds: ['blocked'] },
    });
    expect(set.json().min_payout).toBe(1000);
    const big = await buildPublisher(t.db);
    const small = await buildPublisher(t.db);
    const blocked = await buildPublisher(t.db);
    await lead(big, '1000.00');
    await lead(small, '999.99');
    await lead(blocked, '5000.00');
    await t.db.execute(sql`update users set status = 'blocked' where id = ${blocked.id}`);
    const preview = await t.call('POST', '/payout-runs/preview', {
      body: { all_above_threshold: true },
    });
    const ids = preview.json().items.map((i: { publisher_id: string }) => i.publisher_id);
    expect(ids).toContain(big.id);
    expect(ids).not.toContain(small.id);
    // Owed $5,000: listed with the amount and the reason, never left out without a word.
    const held = preview
      .json()
      .items.find((i: { publisher_id: string }) => i.publisher_id === blocked.id);
    expect(held).toMatchObject({ total: 5000, held: expect.stringMatching(/not approved/) });
    expect(preview.json().held_total).toBeGreaterThanOrEqual(5000);
    const onlyAbove = await t.call('GET', '/balances', { query: { above_threshold: 'true' } });
    expect(onlyAbove.json().items.every((r: { owed: number }) => r.owed >= 1000)).toBe(true);
    // A blocked publisher named explicitly is shown, held with the reason, and not paid.
    const named = await t.call('POST', '/payout-runs/preview', {
      body: { publisher_ids: [blocked.id] },
    });
    expect(named.json().items[0].held).toMatch(/blocked/);
    expect(named.json().payouts).toBe(0);
    const confirm = await t.call('POST', '/payout-runs', { body: { publisher_ids: [blocked.id] } });
    expect(confirm.statusCode).toBe(409);
    await t.call('PATCH', '/settings', { body: { min_payout: 50, payout_holds: [] } });
  });

  it('refuses bad selections with a clear 4xx', async () => {
    const none = await t.call('POST', '/payout-runs/preview', { body: {} });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.details.publisher_ids[0]).toMatch(/Select at least one publisher/);
    const backwards = await t.call('POST', '/payout-runs/preview', {
      body: { all_above_threshold: true, period_from: '2026-11-10', period_to: '2026-11-01' },
    });
    expect(backwards.statusCode).toBe(400);
    const ghost = await t.call('POST', '/payout-runs/preview', {
      body: { publisher_ids: ['00000000-0000-4000-8000-000000000000'] },
    });
    expect(ghost.statusCode).toBe(400);
    expect(
      (await t.call('GET', '/payout-runs/00000000-0000-4000-8000-000000000000')).statusCode,
    ).toBe(404);
  });
});

describe('manual payouts and adjustments', () => {
  it('the spec form is a run of one; an advance is deducted from the next run', async () => {
    const pub = await buildPublisher(t.db);
    await lead(pub, '100.00');
    const res = await t.call('POST', '/payouts', {
      body: { publisher_id: pub.id, amount: 30, notes: 'Early transfer' },
    });
    expect(res.statusCode).toBe(201);
    // The form records money already sent: paid at once, not waiting in a run (issue 27).
    expect(res.json()).toMatchObject({ amount: 30, notes: 'Early transfer', status: 'paid' });
    expect(res.json().run_id).toBeTruthy();
    const run = (await t.call('GET', `/payout-runs/${res.json().run_id}`)).json();
    expect(run).toMatchObject({ kind: 'manual', payouts: 1, total: 30 });
    expect(await balanceOf(pub)).toMatchObject({ earned: 100, recorded: 0, paid: 30, owed: 70 });
    const next = await t.call('POST', '/payout-runs', { body: { publisher_ids: [pub.id] } });
    expect(next.json().total).toBe(70);
    expect(await balanceOf(pub)).toMatchObject({ owed: 0 });
  });

  it('a bonus payout adds to earnings and pays them; a clawback is deducted next run', async () => {
    const pub = await buildPublisher(t.db);
    await lead(pub, '60.00');
    await t.call('POST', '/payouts', {
      body: { publisher_id: pub.id, amount: 10, notes: 'Top publisher', reason: 'bonus' },
    });
    expect(await balanceOf(pub)).toMatchObject({ earned: 70, paid: 10, owed: 60 });
    const wrongSign = await t.call('POST', `/publishers/${pub.id}/adjustments`, {
      body: { reason: 'clawback', amount: 15, note: 'Fraud' },
    });
    expect(wrongSign.statusCode).toBe(400);
    const noNote = await t.call('POST', `/publishers/${pub.id}/adjustments`, {
      body: { reason: 'clawback', amount: -15 },
    });
    expect(noNote.statusCode).toBe(400);
    const claw = await t.call('POST', `/publishers/${pub.id}/adjustments`, {
      body: { reason: 'clawback', amount: -15, note: 'Fraudulent calls in October' },
    });
    expect(claw.statusCode).toBe(201);
    expect(await balanceOf(pub)).toMatchObject({ earned: 55, owed: 45 });
    const { run, p } = await payoutRunOf(pub);
    expect(run.total).toBe(45);
    const st = (await t.call('GET', `/payouts/${p!.id}/statement`)).json();
    expect(st.lines.map((l: { description: string }) => l.description)).toContain(
      'Clawback: Fraudulent calls in October',
    );
    expect(st.total).toBe(45);
  });
});

describe('currency', () => {
  it('is a setting (default USD) shown with its symbol in statements', async () => {
    expect((await t.app.inject({ url: '/api/v1/public/settings' })).json().currency).toBe('USD');
    const bad = await t.call('PATCH', '/settings', { body: { currency: 'XXX' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/Currency must be one of/);
    await t.call('PATCH', '/settings', { body: { currency: 'EUR' } });
    expect((await t.app.inject({ url: '/api/v1/public/settings' })).json().currency).toBe('EUR');
    const pub = await buildPublisher(t.db);
    await lead(pub, '1234.50');
    const { run, p } = await payoutRunOf(pub);
    const [text] = await pdfText(
      (await t.call('GET', `/payouts/${p!.id}/statement.pdf`)).rawPayload,
    );
    expect(text).toContain('€1,234.50');
    const csv = await t.call('GET', `/payout-runs/${run.id}/export.csv`);
    expect(csv.body).toContain(',1234.50,EUR,');
    await t.call('PATCH', '/settings', { body: { currency: 'USD' } });
  });
});

describe('publisher side', () => {
  it("reads only its own payouts' statements and leads", async () => {
    const owner = await buildPublisher(t.db);
    const stranger = await buildPublisher(t.db);
    await lead(owner, '20.00');
    const { p } = await payoutRunOf(owner);
    for (const suffix of ['', '.pdf', '.csv']) {
      expect((await pubCall(owner, 'GET', `/payouts/${p!.id}/statement${suffix}`)).statusCode).toBe(
        200,
      );
      expect(
        (await pubCall(stranger, 'GET', `/payouts/${p!.id}/statement${suffix}`)).statusCode,
      ).toBe(404);
    }
    const covered = await pubCall(owner, 'GET', `/payouts/${p!.id}/leads`);
    expect(covered.json().items).toEqual([
      expect.objectContaining({ kind: 'lead', amount: 20, offer_title: 'Solar Calls' }),
    ]);
    expect((await pubCall(stranger, 'GET', `/payouts/${p!.id}/leads`)).statusCode).toBe(404);
    expect(await balanceOf(stranger)).toMatchObject({ earned: 0, paid: 0, owed: 0 });
  });

  it('sets payment details: validated, audited, and the admins are told', async () => {
    const pub = await buildPublisher(t.db, { name: 'Pay Me' });
    const bad = await pubCall(pub, 'PUT', '/payment-details', { method: 'cash', account: '' });
    expect(bad.statusCode).toBe(400);
    const ok = await pubCall(pub, 'PUT', '/payment-details', {
      method: 'paypal',
      account: 'payme@example.test',
      holder_name: 'Pay Me',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ method: 'paypal', account: 'payme@example.test' });
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payment_details.update'), eq(auditLog.entityId, pub.id)));
    expect(audit).toMatchObject({ before: null, after: { method: 'paypal' } });
    const mails = await t.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.subject, 'Pay Me changed their payment details'));
    expect(mails.map((m) => m.to)).toContain(t.admin.email);
    // The admin sees them on the balances row once the publisher has one.
    await lead(pub, '5.00');
    const row = (await t.call('GET', '/balances', { query: { q: pub.email } })).json().items[0];
    expect(row.payment).toMatchObject({
      method: 'paypal',
      holder_name: 'Pay Me',
      tax_form_status: 'not_submitted',
    });
  });
});
