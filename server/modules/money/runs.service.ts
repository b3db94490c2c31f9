import { and, eq, inArray, sql } from 'drizzle-orm';
import type {
  Adjustment,
  CreateAdjustment,
  MarkRunPaid,
  PayoutRun,
  RunList,
  RunListQuery,
  RunPreview,
  RunSelection,
  VoidRun,
} from '../../../contract/money.ts';
import { isApprovedPublisher } from '../../../contract/roles.ts';
import { type Db, type DbOrTx, rowsOf } from '../../db/client.ts';
import { countRows, keyset, listPage, pageOf } from '../../db/list-query.ts';
import { amountCents, centsMoney, centsText, fromMoney, toMoney } from '../../db/money.ts';
import { apiFields, oneOrNotFound, onUniqueViolation } from '../../db/rows.ts';
import {
  payoutAdjustments,
  payoutLines,
  payoutRuns,
  payouts,
  publisherBalances,
  statementCounters,
  users,
} from '../../db/schema.ts';
import { AppError, conflict, invalidField } from '../../errors.ts';
import { emitEvent } from '../../events/emit.ts';
import { type Actor, type AdminEdit, type AdminWrite, auditTrail } from '../audit/index.ts';
import { holdsOf, isHeld, useReleases } from './holds.service.ts';
import {
  candidatesOf,
  type Due,
  dueFor,
  ledgerSettings,
  previewItem,
  skipReason,
} from './ledger.service.ts';
import { paymentDetailsOf } from './payment-details.service.ts';

const auditAdjustment = auditTrail('publisher', 'adjustment');

const auditPayoutRun = auditTrail('payout_run');

/** What a run over this selection would pay, publisher by publisher; writes nothing. */
export async function previewRun(opts: {
  db: DbOrTx;
  selection: RunSelection;
}): Promise<RunPreview> {
  const { db, selection } = opts;
  const settings = await ledgerSettings(db);
  const candidates = await candidatesOf(db, selection, settings.minPayout);
  if (!selection.all_above_threshold) assertAllFound(selection.publisher_ids ?? [], candidates);
  const payment = await paymentDetailsOf(
    db,
    candidates.map((c) => c.id),
  );
  const holds = await holdsOf(db, candidates, payment);
  const period = { from: selection.period_from, to: selection.period_to };
  const items = [];
  let total = 0n;
  let count = 0;
  let heldTotal = 0n;
  let held = 0;
  for (const c of candidates) {
    const due = await dueFor(db, c.id, period);
    const item = previewItem(c, due, payment.get(c.id), holds.get(c.id));
    if (item.held) {
      heldTotal += due.total;
      held++;
    } else if (!item.skipped) {
      total += due.total;
      count++;
    }
    items.push(item);
  }
  return {
    items,
    total: centsMoney(total),
    payouts: count,
    held,
    held_total: centsMoney(heldTotal),
    currency: settings.currency,
    min_payout: toMoney(settings.minPayout),
  };
}

function assertAllFound(ids: string[], found: { id: string }[]) {
  const known = new Set(found.map((c) => c.id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) {
    throw new AppError('validation_failed', 'A selected publisher does not exist.', {
      details: { publisher_ids: [`No publisher has the id ${missing[0]}.`] },
    });
  }
}

/**
 * Locks the balance rows of these publishers, in id order, until the transaction ends: two
 * runs (or a run and a manual payout) for one publisher take turns, and the second one reads
 * the lines the first committed, so it finds those leads paid.
 */
async function lockBalances(tx: DbOrTx, publisherIds: string[]) {
  if (!publisherIds.length) return;
  await tx
    .insert(publisherBalances)
    .values(publisherIds.map((publisherId) => ({ publisherId })))
    .onConflictDoNothing();
  await tx
    .select({ id: publisherBalances.publisherId })
    .from(publisherBalances)
    .where(inArray(publisherBalances.publisherId, publisherIds))
    .orderBy(publisherBalances.publisherId)
    .for('no key update');
}

/**
 * The next statement number of a publisher in the year of `at` (UTC): counted in
 * statement_counters, so a number is given once, even when its payout is voided later. The
 * publisher's balance row is locked by the caller, so two runs take turns here too.
 */
async function nextStatementNumber(tx: DbOrTx, publisherId: string, at: Date) {
  const year = at.getUTCFullYear();
  const [row] = await tx
    .insert(statementCounters)
    .values({ publisherId, year, last: 1 })
    .onConflictDoUpdate({
      target: [statementCounters.publisherId, statementCounters.year],
      set: { last: sql`${statementCounters.last} + 1` },
    })
    .returning({ last: statementCounters.last });
  return { year, seq: row!.last };
}

/** Writes one payout with its lines; its amount is the sum of the lines. */
async function writePayout(
  tx: DbOrTx,
  p: {
    runId: string;
    publisherId: string;
    due: { lines: (Due['lines'][number] | LineInsert)[]; total: bigint };
    notes: string | null;
    period: { from?: string | undefined; to?: string | undefined };
    actor: Actor;
    /** `paid` for the manual form's money already sent; a run's payouts start recorded. */
    status?: 'recorded' | 'paid';
  },
): Promise<string> {
  const statement = await nextStatementNumber(tx, p.publisherId, new Date());
  const [row] = await tx
    .insert(payouts)
    .values({
      statementYear: statement.year,
      statementSeq: statement.seq,
      publisherId: p.publisherId,
      amount: centsText(p.due.total),
      notes: p.notes,
      createdBy: p.actor.id,
      runId: p.runId,
      periodFrom: p.period.from ?? null,
      periodTo: p.period.to ?? null,
      status: p.status ?? 'recorded',
    })
    .returning({ id: payouts.id });
  const payoutId = row!.id;
  await emitEvent(tx, 'payout.created', {
    payout_id: payoutId,
    publisher_id: p.publisherId,
    run_id: p.runId,
    amount: Number(centsText(p.due.total)),
    status: p.status ?? 'recorded',
    period_from: p.period.from ?? null,
    period_to: p.period.to ?? null,
  });
  const values = p.due.lines.map((l) => ({
    payoutId,
    publisherId: p.publisherId,
    kind: l.kind,
    leadId: 'leadId' in l ? l.leadId : null,
    seq: 'seq' in l ? l.seq : null,
    adjustmentId: 'adjustmentId' in l ? l.adjustmentId : null,
    amount: centsText(l.amount),
  }));
  // Big runs insert their lines in chunks (a statement has at most 65535 parameters).
  for (let i = 0; i < values.length; i += 5000) {
    await tx.insert(payoutLines).values(values.slice(i, i + 5000));
  }
  return payoutId;
}

type LineInsert = { kind: 'advance'; amount: bigint };

const alreadyPaid = () =>
  conflict(
    'Some of these leads were just paid by another payout run. Preview the run again: it now leaves them out.',
  );

/**
 * Confirms a run: the payouts of every selected publisher with something to pay, each linked
 * to the lines it pays, in one transaction. Nothing is written when nobody has anything due.
 */
export async function confirmRun(opts: {
  db: Db;
  actor: Actor;
  selection: RunSelection;
}): Promise<PayoutRun> {
  const { selection, actor } = opts;
  // The unique (lead_id, seq) is the last guard: a lead is never paid twice.
  return onUniqueViolation(
    () =>
      opts.db.transaction(async (tx) => {
        const settings = await ledgerSettings(tx);
        const first = await candidatesOf(tx, selection, settings.minPayout);
        if (!selection.all_above_threshold) assertAllFound(selection.publisher_ids ?? [], first);
        await lockBalances(
          tx,
          first.map((c) => c.id),
        );
        // Read again under the locks: a run that committed meanwhile changed the balances (only
        // the locked publishers: one that crossed the threshold since waits for the next run).
        const locked = new Set(first.map((c) => c.id));
        const candidates = (await candidatesOf(tx, selection, settings.minPayout)).filter((c) =>
          locked.has(c.id),
        );
        const period = { from: selection.period_from, to: selection.period_to };
        const holds = await holdsOf(tx, candidates);
        const dues: { c: (typeof candidates)[number]; due: Due }[] = [];
        const held: { c: (typeof candidates)[number]; due: Due }[] = [];
        for (const c of candidates) {
          const due = await dueFor(tx, c.id, period);
          if (skipReason(due)) continue;
          (isHeld(holds.get(c.id)) ? held : dues).push({ c, due });
        }
        if (!dues.length) {
          throw conflict(
            held.length
              ? `Nothing to pay: every selected publisher with something due is held (${held.length}). Release a hold from the preview, or fix what holds it.`
              : 'Nothing to pay: no selected publisher has anything due in this period.',
          );
        }
        const note = selection.note?.trim() || null;
        const [run] = await tx
          .insert(payoutRuns)
          .values({
            kind: 'run',
            periodFrom: selection.period_from ?? null,
            periodTo: selection.period_to ?? null,
            note,
            createdBy: actor.id,
          })
          .returning({ id: payoutRuns.id });
        let total = 0n;
        for (const { c, due } of dues) {
          await writePayout(tx, {
            runId: run!.id,
            publisherId: c.id,
            due,
            notes: note,
            period,
            actor,
          });
          total += due.total;
        }
        await useReleases(
          tx,
          dues.map((d) => d.c.id),
        );
        const [saved] = await tx
          .update(payoutRuns)
          .set({ total: centsText(total), payouts: dues.length })
          .where(eq(payoutRuns.id, run!.id))
          .returning();
        await auditPayoutRun(tx, actor, 'create', run!.id, {
          before: null,
          after: {
            total: centsText(total),
            payouts: dues.map((d) => ({ publisher_id: d.c.id, amount: centsText(d.due.total) })),
            held: held.map((d) => ({
              publisher_id: d.c.id,
              amount: centsText(d.due.total),
              reasons: holds.get(d.c.id)?.reasons ?? [],
            })),
            period_from: selection.period_from ?? null,
            period_to: selection.period_to ?? null,
          },
        });
        await emitEvent(tx, 'payout_run.confirmed', {
          run_id: run!.id,
          total: Number(centsText(total)),
          payouts: dues.length,
          held: held.length,
          period_from: selection.period_from ?? null,
          period_to: selection.period_to ?? null,
        });
        return toRun({ ...saved!, createdByEmail: actor.email });
      }),
    alreadyPaid,
  );
}

/**
 * The spec's payout form (publisher, amount, notes) as a run of one: an advance on earnings
 * (deducted from the next run as a credit), or a bonus/correction added to the earnings and
 * paid at once. The form records money the admin has sent ("Record a payout when you send
 * one"): the run and its payout are paid at once (issue 27), not waiting in a recorded run.
 */
export async function createManualPayout(opts: {
  db: Db;
  actor: Actor;
  input: {
    publisher_id: string;
    amount: number;
    notes?: string | null | undefined;
    reason: 'advance' | 'bonus' | 'correction';
  };
}): Promise<string> {
  const { input, actor } = opts;
  return opts.db.transaction(async (tx) => {
    const [publisher] = await tx
      .select({ id: users.id, status: users.status })
      .from(users)
      .where(and(eq(users.id, input.publisher_id), eq(users.role, 'publisher')));
    if (!publisher) {
      throw invalidField('publisher_id', 'The selected publisher does not exist.');
    }
    if (!isApprovedPublisher(publisher.status)) {
      throw conflict(
        `Payouts can only be recorded for approved publishers; this publisher is ${publisher.status}.`,
      );
    }
    await lockBalances(tx, [publisher.id]);
    const notes = input.notes?.trim() ? input.notes.trim() : null;
    const amount = amountCents(input.amount);
    const [run] = await tx
      .insert(payoutRuns)
      .values({
        kind: 'manual',
        status: 'paid',
        paidAt: new Date(),
        note: notes,
        total: centsText(amount),
        payouts: 1,
        createdBy: actor.id,
      })
      .returning({ id: payoutRuns.id });
    let lines: (Due['lines'][number] | LineInsert)[];
    if (input.reason === 'advance') {
      lines = [{ kind: 'advance', amount }];
    } else {
      const [adj] = await tx
        .insert(payoutAdjustments)
        .values({
          publisherId: publisher.id,
          reason: input.reason,
          amount: centsText(amount),
          note: notes ?? (input.reason === 'bonus' ? 'Bonus' : 'Correction'),
          createdBy: actor.id,
        })
        .returning({ id: payoutAdjustments.id });
      lines = [{ kind: 'adjustment', adjustmentId: adj!.id, amount }];
    }
    return writePayout(tx, {
      runId: run!.id,
      publisherId: publisher.id,
      due: { lines, total: amount },
      notes,
      period: {},
      actor,
      status: 'paid',
    });
  });
}

/** A bonus, clawback or correction: owed at once, paid (or deducted) by the next run. */
export async function createAdjustment(
  opts: AdminWrite<CreateAdjustment> & { publisherId: string },
): Promise<Adjustment> {
  const { input, actor } = opts;
  if (input.reason === 'clawback' && input.amount > 0) {
    throw invalidField('amount', 'A clawback takes money back: enter a negative amount.');
  }
  if (input.reason === 'bonus' && input.amount < 0) {
    throw invalidField('amount', 'A bonus adds money: enter a positive amount.');
  }
  return opts.db.transaction(async (tx) => {
    const publisher = await oneOrNotFound(
      tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, opts.publisherId), eq(users.role, 'publisher'))),
      'Publisher',
    );
    const [row] = await tx
      .insert(payoutAdjustments)
      .values({
        publisherId: publisher.id,
        reason: input.reason,
        amount: fromMoney(input.amount),
        note: input.note,
        createdBy: actor.id,
      })
      .returning();
    const adj: Adjustment = {
      id: row!.id,
      publisher_id: row!.publisherId,
      reason: row!.reason,
      amount: toMoney(row!.amount),
      note: row!.note,
      created_at: row!.createdAt.toISOString(),
      payout_id: null,
    };
    await auditAdjustment(tx, actor, 'create', publisher.id, {
      before: null,
      after: { reason: adj.reason, amount: row!.amount, note: adj.note },
    });
    return adj;
  });
}

// ---------------------------------------------------------------------------
// Runs: list, one, paid, void, export
// ---------------------------------------------------------------------------

type RunRow = typeof payoutRuns.$inferSelect & { createdByEmail: string | null };

function toRun(r: RunRow): PayoutRun {
  const { total, createdBy: _by, voidReason: _reason, ...fields } = r;
  return { ...apiFields(fields), total: toMoney(total) };
}

const runColumns = {
  id: payoutRuns.id,
  kind: payoutRuns.kind,
  status: payoutRuns.status,
  periodFrom: payoutRuns.periodFrom,
  periodTo: payoutRuns.periodTo,
  total: payoutRuns.total,
  payouts: payoutRuns.payouts,
  reference: payoutRuns.reference,
  note: payoutRuns.note,
  createdBy: payoutRuns.createdBy,
  createdAt: payoutRuns.createdAt,
  paidAt: payoutRuns.paidAt,
  voidedAt: payoutRuns.voidedAt,
  voidReason: payoutRuns.voidReason,
  createdByEmail: users.email,
};

/** Payout runs, newest first (a run of one for every manual payout). */
export function listRuns(opts: { db: DbOrTx; query: RunListQuery }): Promise<RunList> {
  const { db, query } = opts;
  return listPage({
    query,
    keyset: keyset('created_at', payoutRuns.createdAt, query.order, payoutRuns.id),
    rows: (w) =>
      pageOf(
        db
          .select({ ...runColumns, sortKey: w.sortKey })
          .from(payoutRuns)
          .leftJoin(users, eq(users.id, payoutRuns.createdBy))
          .$dynamic(),
        undefined,
        w,
      ),
    count: () => countRows(db, payoutRuns, undefined, 'exact'),
    toItem: toRun,
  });
}

export async function getRun(db: DbOrTx, id: string): Promise<PayoutRun> {
  const row = await oneOrNotFound(
    db
      .select(runColumns)
      .from(payoutRuns)
      .leftJoin(users, eq(users.id, payoutRuns.createdBy))
      .where(eq(payoutRuns.id, id)),
    'Payout run',
  );
  return toRun(row);
}

async function lockRun(tx: DbOrTx, id: string) {
  return oneOrNotFound(
    tx.select().from(payoutRuns).where(eq(payoutRuns.id, id)).for('update'),
    'Payout run',
  );
}

/** A recorded run, paid: its payouts carry the bank's or platform's reference. */
export async function markRunPaid(opts: AdminEdit<MarkRunPaid>): Promise<PayoutRun> {
  await opts.db.transaction(async (tx) => {
    const run = await lockRun(tx, opts.id);
    if (run.status !== 'recorded') {
      throw conflict(
        run.status === 'paid'
          ? 'This run is already marked paid.'
          : 'This run is void: it cannot be paid.',
      );
    }
    const now = new Date();
    await tx
      .update(payoutRuns)
      .set({ status: 'paid', reference: opts.input.reference, paidAt: now })
      .where(eq(payoutRuns.id, run.id));
    await tx
      .update(payouts)
      .set({ status: 'paid', reference: opts.input.reference })
      .where(eq(payouts.runId, run.id));
    await auditPayoutRun(tx, opts.actor, 'paid', run.id, {
      before: { status: run.status, reference: run.reference },
      after: { status: 'paid', reference: opts.input.reference },
    });
  });
  return getRun(opts.db, opts.id);
}

/**
 * Voids a recorded run: its payouts (and their lines) are deleted, so their leads and
 * adjustments are due again and the balances go back; the run stays, void, with its reason.
 * Refused (409) while a later run holds a line of one of its calls (a reversal, a payment
 * again): runs are voided latest first.
 */
export async function voidRun(opts: AdminEdit<VoidRun>): Promise<PayoutRun> {
  await opts.db.transaction(async (tx) => {
    const run = await lockRun(tx, opts.id);
    if (run.status === 'void') throw conflict('This run is already void.');
    if (run.status === 'paid') {
      throw conflict(
        'This run is marked paid: the money has left. Record a clawback adjustment instead of voiding it.',
      );
    }
    // A call this run paid that a later run took back (a reversal) or paid again: voiding this
    // run would leave that later line answering a payment that no longer exists (a reversal
    // taking back money never paid). The later run is voided first.
    const [later] = await rowsOf<{ recorded_at: Date }>(
      tx,
      sql`select r.created_at as recorded_at
            from ${payoutLines} pl
            join ${payouts} p on p.id = pl.payout_id
            join ${payoutLines} nl on nl.lead_id = pl.lead_id and nl.seq > pl.seq
            join ${payouts} np on np.id = nl.payout_id
            join ${payoutRuns} r on r.id = np.run_id
           where p.run_id = ${run.id} and pl.lead_id is not null and np.run_id <> ${run.id}
           order by r.created_at desc
           limit 1`,
    );
    if (later) {
      throw conflict(
        `A later run (recorded ${new Date(later.recorded_at).toISOString().slice(0, 16).replace('T', ' ')} UTC) took back or paid again calls of this run. Void that run first, then this one.`,
      );
    }
    const removed = await tx
      .select({ id: payouts.id, publisherId: payouts.publisherId, amount: payouts.amount })
      .from(payouts)
      .where(eq(payouts.runId, run.id))
      .orderBy(payouts.publisherId);
    await lockBalances(
      tx,
      removed.map((p) => p.publisherId),
    );
    const adjusted = await tx
      .select({ id: payoutLines.adjustmentId })
      .from(payoutLines)
      .innerJoin(payouts, eq(payouts.id, payoutLines.payoutId))
      .where(and(eq(payouts.runId, run.id), eq(payoutLines.kind, 'adjustment')));
    await tx.delete(payouts).where(eq(payouts.runId, run.id));
    // A manual run's bonus or correction existed only for that payout: it goes with it.
    if (run.kind === 'manual') {
      const ids = adjusted.map((a) => a.id).filter((id): id is string => id !== null);
      if (ids.length) await tx.delete(payoutAdjustments).where(inArray(payoutAdjustments.id, ids));
    }
    await tx
      .update(payoutRuns)
      .set({ status: 'void', voidedAt: new Date(), voidReason: opts.input.reason })
      .where(eq(payoutRuns.id, run.id));
    await auditPayoutRun(tx, opts.actor, 'void', run.id, {
      before: {
        status: run.status,
        payouts: removed.map((p) => ({ id: p.id, publisher_id: p.publisherId, amount: p.amount })),
      },
      after: { status: 'void', reason: opts.input.reason },
    });
  });
  return getRun(opts.db, opts.id);
}
