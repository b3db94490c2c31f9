import { eq, inArray, sql } from 'drizzle-orm';
import {
  PAYOUT_HOLD_LABELS,
  type PaymentDetails,
  type PayoutHoldCondition,
  type PayoutHoldState,
  payoutHoldConditions,
  type ReleasePayoutHold,
  type SetPayoutReview,
} from '../../../contract/money.ts';
import { isApprovedPublisher } from '../../../contract/roles.ts';
import { type DbOrTx, rowsOf } from '../../db/client.ts';
import { payoutHolds, users } from '../../db/schema.ts';
import { getSettings } from '../../db/settings.ts';
import { notFound } from '../../errors.ts';
import { type AdminWrite, auditTrail } from '../audit/index.ts';
import { paymentDetailsOf } from './payment-details.service.ts';

const auditPayoutHold = auditTrail('publisher', 'payout_hold');

/**
 * Payout holds (issue 27). Settings enables the conditions that hold a publisher's payout
 * (`payoutHoldConditions`); a run's preview lists a held publisher with the amount and the
 * reason instead of leaving them out, and the run skips them. An admin may release the holds
 * for the next run with a note (audited): the run that pays the publisher uses the release up.
 */

export type HoldRow = typeof payoutHolds.$inferSelect;

export type Hold = {
  /** The enabled conditions met now. */
  reasons: PayoutHoldCondition[];
  /** The pending release, when an admin gave one. */
  release: { note: string; byEmail: string | null; at: Date } | null;
  row: HoldRow | null;
};

/** The enabled conditions of the settings row, in their canonical order. */
export function enabledConditions(stored: readonly string[]): PayoutHoldCondition[] {
  return payoutHoldConditions.filter((c) => stored.includes(c));
}

/** Which enabled conditions a publisher meets: a pure rule, tested on its own. */
export function holdReasons(
  enabled: readonly PayoutHoldCondition[],
  p: { status: string; payment: PaymentDetails | undefined; underReview: boolean },
): PayoutHoldCondition[] {
  const met: Record<PayoutHoldCondition, boolean> = {
    tax_form: p.payment?.tax_form_status !== 'approved',
    payment_details: !p.payment?.method || !p.payment.account,
    blocked: !isApprovedPublisher(p.status),
    under_review: p.underReview,
  };
  return enabled.filter((c) => met[c]);
}

/** One sentence for the preview: "Held: tax form not approved; payment details missing." */
export function holdSentence(reasons: readonly PayoutHoldCondition[]): string | null {
  if (!reasons.length) return null;
  return `Held: ${reasons.map((r, i) => (i ? PAYOUT_HOLD_LABELS[r].toLowerCase() : PAYOUT_HOLD_LABELS[r])).join('; ')}.`;
}

/** The holds of several publishers at once (for a run's preview and confirmation). */
export async function holdsOf(
  db: DbOrTx,
  publishers: { id: string; status: string }[],
  payment?: Map<string, PaymentDetails>,
): Promise<Map<string, Hold>> {
  const out = new Map<string, Hold>();
  if (!publishers.length) return out;
  const ids = publishers.map((p) => p.id);
  const [settings, rows, details] = await Promise.all([
    getSettings(db),
    db
      .select({ hold: payoutHolds, releasedByEmail: users.email })
      .from(payoutHolds)
      .leftJoin(users, eq(users.id, payoutHolds.releasedBy))
      .where(inArray(payoutHolds.publisherId, ids)),
    payment ? Promise.resolve(payment) : paymentDetailsOf(db, ids),
  ]);
  const enabled = enabledConditions(settings.payoutHolds);
  const byId = new Map(rows.map((r) => [r.hold.publisherId, r]));
  for (const p of publishers) {
    const r = byId.get(p.id);
    const row = r?.hold ?? null;
    out.set(p.id, {
      reasons: holdReasons(enabled, {
        status: p.status,
        payment: details.get(p.id),
        underReview: row?.underReview ?? false,
      }),
      release:
        row?.releasedAt && row.releaseNote
          ? { note: row.releaseNote, byEmail: r?.releasedByEmail ?? null, at: row.releasedAt }
          : null,
      row,
    });
  }
  return out;
}

/** True when the run leaves this publisher out. */
export const isHeld = (h: Hold | undefined) => Boolean(h?.reasons.length && !h.release);

/** The conditions as the bits of `payout_hold_states.mask`: one bit per condition, in order. */
export const holdMask = (conditions: readonly PayoutHoldCondition[]) =>
  conditions.reduce((m, c) => m | (1 << payoutHoldConditions.indexOf(c)), 0);

/**
 * How many publishers owed money a run would hold now (the dashboard's "held payouts", issue
 * 34), with the same rule as `holdReasons` and `isHeld` (holds.test.ts checks the two agree on
 * every combination, through every kind of change). The database keeps each owed publisher's
 * conditions as they change (drizzle/0057), so the count sums a few parts whatever the number
 * of publishers; joining the owed publishers on each request read 698 buffers at 1,628 owed.
 */
export async function heldPublisherCount(db: DbOrTx): Promise<number> {
  const mask = holdMask(enabledConditions((await getSettings(db)).payoutHolds));
  if (!mask) return 0;
  const [row] = await rowsOf<{ n: number }>(
    db,
    sql`select coalesce(sum(n), 0)::int as n from payout_hold_parts where mask & ${mask}::smallint <> 0`,
  );
  return row?.n ?? 0;
}

/**
 * Folds the held payouts' parts into one row per mask (the `payout-holds-fold` job), in one
 * statement, as `foldNetworkBalance` does. Returns how many parts it folded.
 */
export async function foldPayoutHolds(db: DbOrTx): Promise<number> {
  const [row] = await rowsOf<{ folded: number }>(
    db,
    sql`with gone as (
          delete from payout_hold_parts
          where (select count(*) > count(distinct mask) from payout_hold_parts)
          returning mask, n
        ), kept as (
          insert into payout_hold_parts (mask, n)
          select mask, sum(n) from gone group by mask having sum(n) <> 0
        )
        select count(*)::int as folded from gone`,
  );
  return row?.folded ?? 0;
}

/** A run paid these publishers: their releases are used up. */
export async function useReleases(tx: DbOrTx, publisherIds: string[]) {
  if (!publisherIds.length) return;
  await tx
    .update(payoutHolds)
    .set({ releaseNote: null, releasedAt: null, releasedBy: null })
    .where(inArray(payoutHolds.publisherId, publisherIds));
}

async function publisherOf(db: DbOrTx, id: string) {
  const [p] = await db
    .select({ id: users.id, status: users.status, role: users.role })
    .from(users)
    .where(eq(users.id, id));
  if (p?.role !== 'publisher') throw notFound('Publisher');
  return p;
}

/** GET /admin/publishers/:id/payout-hold. */
export async function getHoldState(db: DbOrTx, publisherId: string): Promise<PayoutHoldState> {
  const p = await publisherOf(db, publisherId);
  const [hold, settings] = await Promise.all([
    holdsOf(db, [p]).then((m) => m.get(p.id)!),
    getSettings(db),
  ]);
  return {
    held: isHeld(hold),
    reasons: hold.reasons.map((condition) => ({
      condition,
      label: PAYOUT_HOLD_LABELS[condition],
    })),
    enabled: enabledConditions(settings.payoutHolds),
    under_review: hold.row?.underReview ?? false,
    review_note: hold.row?.reviewNote ?? null,
    review_at: hold.row?.reviewAt?.toISOString() ?? null,
    release: hold.release
      ? {
          note: hold.release.note,
          by_email: hold.release.byEmail,
          at: hold.release.at.toISOString(),
        }
      : null,
  };
}

/** Writes a publisher's hold row, created on its first use. */
async function upsertHold(
  tx: DbOrTx,
  publisherId: string,
  set: Partial<Omit<HoldRow, 'publisherId'>>,
) {
  await tx
    .insert(payoutHolds)
    .values({ publisherId, ...set })
    .onConflictDoUpdate({ target: payoutHolds.publisherId, set });
}

/** Puts a publisher's payouts under review (or lifts it), audited. */
export async function setPayoutReview(
  opts: AdminWrite<SetPayoutReview> & { publisherId: string },
): Promise<PayoutHoldState> {
  const { actor, publisherId, input } = opts;
  await opts.db.transaction(async (tx) => {
    await publisherOf(tx, publisherId);
    const [before] = await tx
      .select()
      .from(payoutHolds)
      .where(eq(payoutHolds.publisherId, publisherId))
      .for('update');
    const set = input.under_review
      ? {
          underReview: true,
          reviewNote: input.note ?? null,
          reviewBy: actor.id,
          reviewAt: new Date(),
        }
      : { underReview: false, reviewNote: null, reviewBy: null, reviewAt: null };
    await upsertHold(tx, publisherId, set);
    await auditPayoutHold(tx, actor, input.under_review ? 'review' : 'review_lifted', publisherId, {
      before: { under_review: before?.underReview ?? false, note: before?.reviewNote ?? null },
      after: { under_review: input.under_review, note: input.note ?? null },
    });
  });
  return getHoldState(opts.db, publisherId);
}

/** Releases a publisher's holds for the next run, with the admin's note, audited. */
export async function releaseHold(
  opts: AdminWrite<ReleasePayoutHold> & { publisherId: string },
): Promise<PayoutHoldState> {
  const { actor, publisherId, input } = opts;
  await opts.db.transaction(async (tx) => {
    const p = await publisherOf(tx, publisherId);
    const hold = (await holdsOf(tx, [p])).get(p.id)!;
    const set = { releaseNote: input.note, releasedBy: actor.id, releasedAt: new Date() };
    await upsertHold(tx, publisherId, set);
    await auditPayoutHold(tx, actor, 'release', publisherId, {
      before: { held_for: hold.reasons },
      after: { released_for_next_run: true, note: input.note },
    });
  });
  return getHoldState(opts.db, publisherId);
}
