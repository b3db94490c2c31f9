import { and, asc, eq, inArray } from 'drizzle-orm';
import {
  type OfferRules,
  OfferRulesInput,
  type PayoutOverride,
  type PayoutOverrideInput,
} from '../../../contract/offer-rules.ts';
import type { DbOrTx } from '../../db/client.ts';
import { fromMoney, toMoney } from '../../db/money.ts';
import { publisherRefColumns, toPublisherRef } from '../../db/refs.ts';
import { groupRows } from '../../db/rows.ts';
import { offerPayoutOverrides, type offers, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

/**
 * An offer's call rules between the database row and the contract (contract/offer-rules.ts):
 * the admin's offer screen and the publisher's offer cards both read them here.
 */

type OfferRow = typeof offers.$inferSelect;

const hhmm = (t: string | null) => (t === null ? null : t.slice(0, 5));

/** Open hours of a row with the hours columns (an offer, a buyer's campaign), or null. */
export function openHoursOf(
  o: Pick<OfferRow, 'hoursTimeZone' | 'openDays' | 'openFrom' | 'openTo'>,
): OfferRules['open_hours'] {
  const from = hhmm(o.openFrom);
  const to = hhmm(o.openTo);
  return o.hoursTimeZone && o.openDays && from && to
    ? { time_zone: o.hoursTimeZone, days: o.openDays, from, to }
    : null;
}

/** The rules of an offer row as the API answers them. */
export function rulesOf(o: OfferRow): OfferRules {
  return {
    buffer_seconds: o.bufferSeconds,
    duplicate_days: o.duplicateDays,
    daily_cap: o.dailyCap,
    monthly_cap: o.monthlyCap,
    publisher_daily_cap: o.publisherDailyCap,
    publisher_monthly_cap: o.publisherMonthlyCap,
    allowed_states: o.allowedStates,
    open_hours: openHoursOf(o),
  };
}

/** The offer columns for rules the admin sent (parsed again: idempotent, fills defaults). */
export function rulesColumns(input: unknown) {
  const r = OfferRulesInput.parse(input);
  return {
    bufferSeconds: r.buffer_seconds,
    duplicateDays: r.duplicate_days,
    dailyCap: r.daily_cap,
    monthlyCap: r.monthly_cap,
    publisherDailyCap: r.publisher_daily_cap,
    publisherMonthlyCap: r.publisher_monthly_cap,
    allowedStates: r.allowed_states,
    hoursTimeZone: r.open_hours?.time_zone ?? null,
    openDays: r.open_hours?.days ?? null,
    openFrom: r.open_hours?.from ?? null,
    openTo: r.open_hours?.to ?? null,
  } satisfies Partial<typeof offers.$inferInsert>;
}

/** The per-publisher payouts of some offers, by offer id (publishers by name). */
export async function payoutOverridesOf(
  db: DbOrTx,
  offerIds: string[],
): Promise<Map<string, PayoutOverride[]>> {
  if (offerIds.length === 0) return new Map();
  const rows = await db
    .select({
      offerId: offerPayoutOverrides.offerId,
      ...publisherRefColumns(offerPayoutOverrides.publisherId),
      payout: offerPayoutOverrides.payout,
    })
    .from(offerPayoutOverrides)
    .innerJoin(users, eq(users.id, offerPayoutOverrides.publisherId))
    .where(inArray(offerPayoutOverrides.offerId, offerIds))
    .orderBy(asc(users.name), asc(users.email));
  return groupRows(
    rows,
    (r) => r.offerId,
    (r): PayoutOverride => ({ ...toPublisherRef(r), payout: toMoney(r.payout) }),
  );
}

/** Replaces an offer's per-publisher payouts with the given list (inside the caller's tx). */
export async function replacePayoutOverrides(
  tx: DbOrTx,
  offerId: string,
  list: readonly PayoutOverrideInput[],
): Promise<void> {
  if (list.length > 0) {
    const ids = list.map((o) => o.publisher_id);
    const found = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, ids), eq(users.role, 'publisher')));
    const known = new Set(found.map((u) => u.id));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length > 0) {
      throw new AppError(
        'validation_failed',
        `No publisher has the id ${missing[0]}: choose publishers from the list.`,
        { status: 400, details: { payout_overrides: ['Please select a publisher.'] } },
      );
    }
  }
  await tx.delete(offerPayoutOverrides).where(eq(offerPayoutOverrides.offerId, offerId));
  if (list.length === 0) return;
  await tx
    .insert(offerPayoutOverrides)
    .values(
      list.map((o) => ({ offerId, publisherId: o.publisher_id, payout: fromMoney(o.payout) })),
    );
}
