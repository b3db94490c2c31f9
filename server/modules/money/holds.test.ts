import { and, eq, gt, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PayoutHoldCondition, payoutHoldConditions } from '../../../contract/money.ts';
import { type DbOrTx, rowsOf } from '../../db/client.ts';
import {
  auditLog,
  leads,
  paymentDetails,
  payoutHolds,
  payouts,
  publisherBalances,
  settings,
  users,
} from '../../db/schema.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { callAs } from '../../test/call-as.ts';
import { buildBuyer, buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';
import { gate } from '../../test/waiting.ts';
import {
  foldPayoutHolds,
  heldPublisherCount,
  holdReasons,
  holdsOf,
  isHeld,
} from './holds.service.ts';

/**
 * Issue 27 item 5: holds said out loud. Settings chooses the conditions; the preview lists a
 * held publisher with the amount and the reason; a release pays them once; only an admin sets
 * a tax form's status, and a publisher's upload makes it `submitted`.
 */

let t: AdminTestContext;
let offerId: string;

beforeAll(async () => {
  t = await setupAdminTest();
  offerId = (await buildOffer(t.db, { payout: '30.00' })).id;
});
afterAll(() => t.close());

async function earn(pub: TestUser, payout: string) {
  await t.db.insert(leads).values({ publisherId: pub.id, offerId, payout, status: 'approved' });
}

/** Payment details on file and the tax form approved: nothing holds this publisher. */
async function readyToBePaid(pub: TestUser) {
  await t.db.insert(paymentDetails).values({
    publisherId: pub.id,
    method: 'paypal',
    account: pub.email,
    holderName: 'Ready Publisher',
    taxFormStatus: 'approved',
  });
}

const asPublisher = async (
  pub: TestUser,
  method: 'GET' | 'PUT' | 'PATCH',
  url: string,
  body?: unknown,
) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${await t.tokenOf(pub)}` },
    ...(body !== undefined && { payload: body as object }),
  });

const preview = async (ids: string[]) =>
  (await t.call('POST', '/payout-runs/preview', { body: { publisher_ids: ids } })).json();

describe('the hold rule', () => {
  it('holds only for the conditions Settings enables', () => {
    const noForm = { status: 'approved', payment: undefined, underReview: false };
    expect(holdReasons(['tax_form', 'payment_details'], noForm)).toEqual([
      'tax_form',
      'payment_details',
    ]);
    expect(holdReasons([], noForm)).toEqual([]);
    const blocked = {
      status: 'blocked',
      payment: {
        method: 'wise' as const,
        account: 'a@b.test',
        holder_name: 'A',
        routing_number: null,
        account_type: null,
        tax_form_status: 'approved' as const,
        updated_at: null,
      },
      underReview: true,
    };
    expect(
      holdReasons(['tax_form', 'payment_details', 'blocked', 'under_review'], blocked),
    ).toEqual(['blocked', 'under_review']);
  });
});

describe('payout holds in a run', () => {
  it('lists a held publisher with the amount and the reason, pays the others, and a release pays them once', async () => {
    const ready = await buildPublisher(t.db);
    const noForm = await buildPublisher(t.db);
    await readyToBePaid(ready);
    await earn(ready, '100.00');
    await earn(noForm, '1500.00');

    const p = await preview([ready.id, noForm.id]);
    expect(p).toMatchObject({ payouts: 1, total: 100, held: 1, held_total: 1500 });
    const held = p.items.find((i: { publisher_id: string }) => i.publisher_id === noForm.id);
    expect(held).toMatchObject({
      total: 1500,
      held: 'Held: Tax form not approved; payment details missing.',
      hold_reasons: ['tax_form', 'payment_details'],
      released: null,
    });

    const run = await t.call('POST', '/payout-runs', {
      body: { publisher_ids: [ready.id, noForm.id] },
    });
    expect(run.statusCode).toBe(201);
    expect(run.json()).toMatchObject({ payouts: 1, total: 100 });
    expect(await t.db.select().from(payouts).where(eq(payouts.publisherId, noForm.id))).toEqual([]);
    // The run's audit entry names who was held, with the amount and why.
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payout_run.create'), eq(auditLog.entityId, run.json().id)));
    expect(entry!.after).toMatchObject({
      held: [
        { publisher_id: noForm.id, amount: '1500.00', reasons: ['tax_form', 'payment_details'] },
      ],
    });

    // Only the held one left: confirming says so instead of "nothing due".
    const again = await t.call('POST', '/payout-runs', { body: { publisher_ids: [noForm.id] } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toMatch(/held/);

    // Released with a note (audited): the next run pays them, and the release is used up.
    const bad = await t.call('POST', `/publishers/${noForm.id}/payout-hold/release`, {
      body: { note: ' ' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/note is required/);
    const released = await t.call('POST', `/publishers/${noForm.id}/payout-hold/release`, {
      body: { note: 'W-9 received by mail, filed on paper' },
    });
    expect(released.statusCode).toBe(200);
    expect(released.json()).toMatchObject({
      held: false,
      release: { note: 'W-9 received by mail, filed on paper', by_email: t.admin.email },
    });
    const after = await preview([noForm.id]);
    expect(after.items[0]).toMatchObject({
      held: null,
      released: { note: 'W-9 received by mail, filed on paper' },
    });
    expect(
      (await t.call('POST', '/payout-runs', { body: { publisher_ids: [noForm.id] } })).statusCode,
    ).toBe(201);
    await earn(noForm, '30.00');
    expect((await preview([noForm.id])).items[0].held).toMatch(/^Held/);
    const audits = await t.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.entityId, noForm.id));
    expect(audits.map((a) => a.action)).toContain('payout_hold.release');
  });

  it('an admin puts payouts under review with a note and lifts it; Settings turns conditions off', async () => {
    const pub = await buildPublisher(t.db);
    await readyToBePaid(pub);
    await earn(pub, '60.00');
    expect((await preview([pub.id])).items[0].held).toBeNull();

    const noNote = await t.call('PUT', `/publishers/${pub.id}/payout-hold`, {
      body: { under_review: true },
    });
    expect(noNote.statusCode).toBe(400);
    const review = await t.call('PUT', `/publishers/${pub.id}/payout-hold`, {
      body: { under_review: true, note: 'Spike of short calls, checking recordings' },
    });
    expect(review.json()).toMatchObject({
      held: true,
      under_review: true,
      review_note: 'Spike of short calls, checking recordings',
      reasons: [{ condition: 'under_review', label: 'Payouts put under review by an admin' }],
    });
    expect((await preview([pub.id])).items[0].held).toBe(
      'Held: Payouts put under review by an admin.',
    );

    // Settings without "under review": the same publisher is paid.
    const set = await t.call('PATCH', '/settings', {
      body: { payout_holds: ['tax_form', 'payment_details'] },
    });
    expect(set.json().payout_holds).toEqual(['tax_form', 'payment_details']);
    expect((await preview([pub.id])).items[0].held).toBeNull();
    const badSet = await t.call('PATCH', '/settings', { body: { payout_holds: ['moon_phase'] } });
    expect(badSet.statusCode).toBe(400);
    await t.call('PATCH', '/settings', {
      body: { payout_holds: ['tax_form', 'payment_details', 'blocked', 'under_review'] },
    });

    const lifted = await t.call('PUT', `/publishers/${pub.id}/payout-hold`, {
      body: { under_review: false },
    });
    expect(lifted.json()).toMatchObject({ held: false, under_review: false, review_note: null });
  });

  it('lists a blocked publisher owed money as held instead of leaving them out', async () => {
    const blocked = await buildPublisher(t.db, { status: 'blocked' });
    await readyToBePaid(blocked);
    await earn(blocked, '1500.00');
    const all = (
      await t.call('POST', '/payout-runs/preview', { body: { all_above_threshold: true } })
    ).json();
    const item = all.items.find((i: { publisher_id: string }) => i.publisher_id === blocked.id);
    expect(item).toMatchObject({ total: 1500, hold_reasons: ['blocked'] });
    expect(item.held).toMatch(/not approved/);
  });
});

describe('tax forms', () => {
  it('a publisher cannot set their own tax form status; an admin can, audited', async () => {
    const pub = await buildPublisher(t.db);
    const self = await asPublisher(pub, 'PUT', '/api/v1/publisher/payment-details', {
      method: 'paypal',
      account: pub.email,
      holder_name: 'Self Approver',
      tax_form_status: 'approved',
    });
    // Either refused outright or the status ignored: never approved by the publisher.
    const form = (await asPublisher(pub, 'GET', '/api/v1/publisher/tax-form')).json();
    expect(form.status).toBe('not_submitted');
    expect([200, 400]).toContain(self.statusCode);
    // The admin route is closed to publishers and buyers.
    const buyer = await buildBuyer(t.db);
    for (const who of [pub, buyer]) {
      const res = await asPublisher(
        who,
        'PATCH',
        `/api/v1/admin/publishers/${pub.id}/payment-details`,
        {
          tax_form_status: 'approved',
        },
      );
      expect(res.statusCode).toBe(403);
    }
    const bad = await t.call('PATCH', `/publishers/${pub.id}/payment-details`, {
      body: { tax_form_status: 'maybe' },
    });
    expect(bad.statusCode).toBe(400);
    const ok = await t.call('PATCH', `/publishers/${pub.id}/payment-details`, {
      body: { tax_form_status: 'approved' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'approved', reviewed_at: expect.any(String) });
    const unknown = await t.call(
      'PATCH',
      '/publishers/00000000-0000-4000-8000-000000000000/payment-details',
      {
        body: { tax_form_status: 'approved' },
      },
    );
    expect(unknown.statusCode).toBe(404);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'tax_form.status'), eq(auditLog.entityId, pub.id)));
    expect(entry).toMatchObject({
      before: { tax_form_status: 'not_submitted' },
      after: { tax_form_status: 'approved' },
    });
  });

  it('a publisher uploads a W-9 as a PDF: it becomes submitted, the admin opens it, a new upload asks again', async () => {
    const pub = await buildPublisher(t.db);
    const doc = await PDFDocument.create();
    doc.addPage().drawText('Form W-9');
    const pdf = Buffer.from(await doc.save());
    const upload = async (data: Buffer, filename: string) => {
      return callAs(t.app, await t.tokenOf(pub), 'PUT', '/api/v1/publisher/tax-form', {
        multipart: [{ field: 'file', filename, content: data, contentType: 'application/pdf' }],
      });
    };
    const notPdf = await upload(Buffer.from('hello'), 'w9.txt');
    expect(notPdf.statusCode).toBe(415);
    expect(notPdf.json().error.message).toMatch(/pdf/i);
    const res = await upload(pdf, 'w9-2026.pdf');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'submitted',
      file: { name: 'w9-2026.pdf', url: expect.stringContaining('/files/') },
      uploaded_at: expect.any(String),
      reviewed_at: null,
    });
    const seen = (await t.call('GET', `/publishers/${pub.id}/tax-form`)).json();
    expect(seen.file.name).toBe('w9-2026.pdf');
    // Approved, then a new form replaces it: back to submitted, waiting for an admin again.
    await t.call('PATCH', `/publishers/${pub.id}/payment-details`, {
      body: { tax_form_status: 'approved' },
    });
    const again = await upload(pdf, 'w9-corrected.pdf');
    expect(again.json()).toMatchObject({ status: 'submitted', file: { name: 'w9-corrected.pdf' } });
    // Another publisher's form is not theirs to read: their own route only answers their own.
    const other = await buildPublisher(t.db);
    expect((await asPublisher(other, 'GET', '/api/v1/publisher/tax-form')).json().file).toBeNull();
  });
});

describe('the dashboard’s held payouts', () => {
  it('counts, in the database, exactly the owed publishers a run would hold, whatever Settings enables', async () => {
    // Every combination of what holds a payout, each with money owed, and one owed nothing.
    const pubs: TestUser[] = [];
    const forms = ['approved', 'submitted', null] as const; // null: no payment details row
    const releases = [null, 'Paid by wire this once', ''] as const;
    for (const form of forms) {
      for (const account of [true, false]) {
        for (const status of ['approved', 'blocked'] as const) {
          for (const underReview of [false, true]) {
            for (const release of releases) {
              const pub = await buildPublisher(t.db, { status });
              pubs.push(pub);
              if (form !== null) {
                await t.db.insert(paymentDetails).values({
                  publisherId: pub.id,
                  method: 'paypal',
                  account: account ? pub.email : null,
                  taxFormStatus: form,
                });
              }
              if (underReview || release !== null) {
                await t.db.insert(payoutHolds).values({
                  publisherId: pub.id,
                  underReview,
                  releaseNote: release,
                  releasedAt: release === null ? null : new Date(),
                });
              }
              await earn(pub, '75.00');
            }
          }
        }
      }
    }
    await buildPublisher(t.db, { status: 'blocked' }); // owes nothing: never counted
    const owed = await t.db
      .select({ id: users.id, status: users.status })
      .from(publisherBalances)
      .innerJoin(users, eq(users.id, publisherBalances.publisherId))
      .where(gt(publisherBalances.owed, '0'));
    expect(owed.length).toBeGreaterThanOrEqual(pubs.length);

    const conditionSets: PayoutHoldCondition[][] = [
      [...payoutHoldConditions],
      ['blocked'],
      ['tax_form', 'under_review'],
      ['payment_details'],
      [],
    ];
    const counts: number[] = [];
    for (const enabled of conditionSets) {
      await t.db.update(settings).set({ payoutHolds: enabled });
      // What a run decides, publisher by publisher, over every owed publisher.
      const judged = await holdsOf(t.db, owed);
      counts.push(pubs.filter((p) => isHeld(judged.get(p.id))).length);
      expect(await heldPublisherCount(t.db)).toBe(
        owed.filter((p) => isHeld(judged.get(p.id))).length,
      );
    }
    await t.db.update(settings).set({ payoutHolds: [...payoutHoldConditions] });
    // The combinations are not trivial: each set holds some, and not all, of them.
    expect(counts.slice(0, 4).every((n) => n > 0 && n < pubs.length)).toBe(true);
    expect(new Set(counts.slice(0, 4)).size).toBe(4);
    expect(counts[4]).toBe(0);
  });

  /** What a run would hold now, publisher by publisher, judged by the rule in TypeScript. */
  async function heldByRule() {
    const owed = await t.db
      .select({ id: users.id, status: users.status })
      .from(publisherBalances)
      .innerJoin(users, eq(users.id, publisherBalances.publisherId))
      .where(gt(publisherBalances.owed, '0'));
    const judged = await holdsOf(t.db, owed);
    return owed.filter((p) => isHeld(judged.get(p.id))).length;
  }
  /** The kept count agrees with the rule, and is `expected` more than at the start. */
  async function counted(what: string, base: number, expected: number) {
    const n = await heldPublisherCount(t.db);
    expect(n, what).toBe(await heldByRule());
    expect(n - base, what).toBe(expected);
  }

  it('follows every change that moves a publisher in or out of the count, through runs, a rebuild and the fold', async () => {
    await t.db.update(settings).set({ payoutHolds: [...payoutHoldConditions] });
    const base = await heldPublisherCount(t.db);
    const a = await buildPublisher(t.db);
    const b = await buildPublisher(t.db);
    const detailsOfA = eq(paymentDetails.publisherId, a.id);
    const holdOfA = eq(payoutHolds.publisherId, a.id);
    await counted('owed nothing: not counted', base, 0);
    await earn(a, '20.00');
    await counted('owed, no payment details: held', base, 1);
    await readyToBePaid(a);
    await counted('details on file and the form approved', base, 0);
    await t.db.update(users).set({ status: 'blocked' }).where(eq(users.id, a.id));
    await counted('blocked', base, 1);
    await t.db.update(users).set({ status: 'approved' }).where(eq(users.id, a.id));
    await counted('approved again', base, 0);
    await t.db.update(paymentDetails).set({ account: null }).where(detailsOfA);
    await counted('account removed', base, 1);
    await t.db
      .update(paymentDetails)
      .set({ account: a.email, taxFormStatus: 'submitted' })
      .where(detailsOfA);
    await counted('account back, form submitted again', base, 1);
    await t.db.update(paymentDetails).set({ taxFormStatus: 'approved' }).where(detailsOfA);
    await t.db.insert(payoutHolds).values({ publisherId: a.id, underReview: true });
    await counted('under review', base, 1);
    const release = await t.call('POST', `/publishers/${a.id}/payout-hold/release`, {
      body: { note: 'Checked by phone' },
    });
    expect(release.statusCode).toBe(200);
    await counted('released', base, 0);
    // The run pays the released publisher: owed nothing, the release used up.
    const run = await t.call('POST', '/payout-runs', { body: { publisher_ids: [a.id] } });
    expect(run.statusCode).toBe(201);
    expect((await t.db.select().from(payoutHolds).where(holdOfA))[0]!.releasedAt).toBeNull();
    await counted('paid by the run', base, 0);
    // A void run gives the money back: owed again, still under review, no release left.
    const voided = await t.call('POST', `/payout-runs/${run.json().id}/void`, {
      body: { reason: 'wrong period' },
    });
    expect(voided.statusCode).toBe(200);
    await counted('the run voided', base, 1);
    await t.db.delete(payoutHolds).where(holdOfA);
    await counted('the review row deleted', base, 0);
    await earn(b, '15.00');
    await counted('another publisher owed', base, 1);
    await t.db.update(leads).set({ status: 'rejected' }).where(eq(leads.publisherId, b.id));
    await counted('its only approved call rejected', base, 0);
    await t.db.update(leads).set({ status: 'approved' }).where(eq(leads.publisherId, b.id));
    await counted('approved again', base, 1);
    await t.db.execute(sql`select rebuild_balances()`);
    await counted('after rebuild_balances()', base, 1);
    // (The `payout-holds-fold` job may have folded some already on a slow run.)
    await foldPayoutHolds(t.db);
    await counted('after the fold', base, 1);
    const [folded] = await rowsOf<{ parts: number }>(
      t.db,
      sql`select count(*)::int as parts from payout_hold_parts`,
    );
    expect(folded!.parts, 'one part per combination of conditions at most').toBeLessThanOrEqual(16);
    expect(await foldPayoutHolds(t.db), 'nothing left to fold').toBe(0);
  });

  // Two writers judging one publisher at once: one makes them owed, the other approves their
  // tax form. Without the state row's lock each would judge without the other's change and the
  // publisher would stay counted as held. Only PostgreSQL runs two transactions at once.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'two transactions changing one publisher at once, in either order, leave the right count',
    async () => {
      await t.db.update(settings).set({ payoutHolds: ['tax_form'] });
      const base = await heldPublisherCount(t.db);
      const becomeOwed = (id: string) => (tx: DbOrTx) =>
        tx.insert(publisherBalances).values({ publisherId: id, earned: '40.00' });
      const approveForm = (id: string) => (tx: DbOrTx) =>
        tx
          .update(paymentDetails)
          .set({ taxFormStatus: 'approved' })
          .where(eq(paymentDetails.publisherId, id));
      for (const order of ['owed first', 'form first'] as const) {
        const pub = await buildPublisher(t.db);
        await t.db.insert(paymentDetails).values({
          publisherId: pub.id,
          method: 'paypal',
          account: pub.email,
          taxFormStatus: 'submitted',
        });
        const [first, second] =
          order === 'owed first'
            ? [becomeOwed(pub.id), approveForm(pub.id)]
            : [approveForm(pub.id), becomeOwed(pub.id)];
        const wrote = gate();
        const commit = gate();
        const one = t.db.transaction(async (tx) => {
          await first(tx);
          wrote.open();
          await commit.p;
        });
        await wrote.p;
        const two = t.db.transaction(async (tx) => second(tx));
        // The second writer is now waiting on the first (or would judge without its change).
        await new Promise((r) => setTimeout(r, 300));
        commit.open();
        await Promise.all([one, two]);
        await counted(order, base, 0);
      }
      await t.db.update(settings).set({ payoutHolds: [...payoutHoldConditions] });
    },
  );
});
