import { and, desc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import {
  DRAFT_MAX_AGE_HOURS,
  PUBLISHER_MESSAGES,
  type PublisherApplication,
  type PublisherOfferList,
  type PublisherOffersQuery,
} from '../../../contract/publisher.ts';
import { applicationReasons, describeReason } from '../../../contract/review-reasons.ts';
import type { UserStatus } from '../../../contract/roles.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { ListRead } from '../../db/list-query.ts';
import { countRows, keysetOf, listPage, pageOf, searchAny } from '../../db/list-query.ts';
import { toMoney } from '../../db/money.ts';
import { isForeignKeyViolation } from '../../db/pg-errors.ts';
import { groupRows } from '../../db/rows.ts';
import {
  offerApplications,
  offerPayoutOverrides,
  offers,
  trackingNumbers,
} from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { rulesOf } from '../offers/index.ts';
import { assertCanApply } from './apply.policy.ts';

type ApplicationRow = typeof offerApplications.$inferSelect;

export const toApplication = (row: ApplicationRow): PublisherApplication => ({
  id: row.id,
  offer_id: row.offerId,
  status: row.status,
  created_at: row.createdAt.toISOString(),
});

export const applicationNotFound = () =>
  new AppError('not_found', 'Application not found.', { status: 404 });
export const isUuid = (s: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

export const alreadyApplied = () =>
  new AppError('already_applied', PUBLISHER_MESSAGES.alreadyApplied, { status: 409 });

/** The publisher's submitted application to the offer: a draft is not one (its dialog is open). */
const submittedApplication = (publisherId: string, offerId: string | AnyPgColumn) =>
  and(
    eq(offerApplications.publisherId, publisherId),
    eq(offerApplications.offerId, offerId),
    ne(offerApplications.status, 'draft'),
  );

/** 409 `already_applied` when the publisher has a submitted (not draft) application to the offer. */
export async function assertNotApplied(
  db: DbOrTx,
  publisherId: string,
  offerId: string,
): Promise<void> {
  const [applied] = await db
    .select({ id: offerApplications.id })
    .from(offerApplications)
    .where(submittedApplication(publisherId, offerId))
    .limit(1);
  if (applied) throw alreadyApplied();
}

const offerSortColumns = {
  created_at: offers.createdAt,
  payout: offers.payout,
  title: sql`lower(${offers.title})`,
  vertical: sql`lower(${offers.vertical})`,
} as const;

/**
 * The tracking numbers assigned to a publisher on each of `offerIds` (newest first), read for a
 * whole page of offers in one query.
 */
async function trackingNumbersByOffer(
  db: DbOrTx,
  publisherId: string,
  offerIds: string[],
): Promise<Map<string, string[]>> {
  if (offerIds.length === 0) return new Map();
  const rows = await db
    .select({ offerId: trackingNumbers.offerId, number: trackingNumbers.number })
    .from(trackingNumbers)
    .where(
      and(eq(trackingNumbers.publisherId, publisherId), inArray(trackingNumbers.offerId, offerIds)),
    )
    .orderBy(desc(trackingNumbers.createdAt), desc(trackingNumbers.id));
  return groupRows(
    rows,
    (r) => r.offerId,
    (r) => r.number,
  );
}

/**
 * Active offers, each with this publisher's non-draft application (drafts do not count) and,
 * once approved, the tracking numbers assigned to them on it; searched by title or vertical,
 * newest first unless sorted otherwise.
 */
export function listPublisherOffers(
  opts: ListRead<z.output<typeof PublisherOffersQuery>> & { publisherId: string },
): Promise<PublisherOfferList> {
  const { db, publisherId, query } = opts;
  const where = and(
    eq(offers.status, 'active'),
    searchAny(query.search, offers.title, offers.vertical),
  );
  // Exact total: active offers are hundreds.
  return listPage({
    query,
    keyset: keysetOf(offerSortColumns, query, offers.id),
    rows: async (w) => {
      const page = await pageOf(
        db
          .select({
            id: offers.id,
            sortKey: w.sortKey,
            offer: offers,
            applicationId: offerApplications.id,
            applicationStatus: offerApplications.status,
            reviewReason: offerApplications.reviewReason,
            reviewNote: offerApplications.reviewNote,
            yourPayout: offerPayoutOverrides.payout,
          })
          .from(offers)
          .leftJoin(offerApplications, submittedApplication(publisherId, offers.id))
          .leftJoin(
            offerPayoutOverrides,
            and(
              eq(offerPayoutOverrides.offerId, offers.id),
              eq(offerPayoutOverrides.publisherId, publisherId),
            ),
          )
          .$dynamic(),
        where,
        w,
      );
      // A publisher sees the numbers of an offer only once approved for it.
      const approved = page.filter((r) => r.applicationStatus === 'approved').map((r) => r.id);
      const numbers = await trackingNumbersByOffer(db, publisherId, approved);
      return page.map((r) => ({ ...r, trackingNumbers: numbers.get(r.id) ?? [] }));
    },
    count: () => countRows(db, offers, where, 'exact'),
    toItem: ({
      offer,
      applicationId,
      applicationStatus,
      reviewReason,
      reviewNote,
      yourPayout,
      trackingNumbers: numbers,
    }) => ({
      id: offer.id,
      title: offer.title,
      vertical: offer.vertical,
      payout: toMoney(offer.payout),
      your_payout: yourPayout === null ? null : toMoney(yourPayout),
      script_instructions: offer.scriptInstructions,
      rules: rulesOf(offer),
      created_at: offer.createdAt.toISOString(),
      application_id: applicationId,
      application_status:
        applicationStatus && applicationStatus !== 'draft' ? applicationStatus : null,
      application_reason:
        applicationStatus === 'rejected'
          ? describeReason(applicationReasons, reviewReason, reviewNote)
          : null,
      tracking_numbers: numbers,
    }),
  });
}

/**
 * Apply Now: a draft for an active offer. There is at most one draft per publisher and offer (a
 * partial unique index), so a double click, a reopened dialog or twenty parallel requests all get
 * the same draft back, with its 24-hour clock restarted.
 */
export async function startApplication(opts: {
  db: DbOrTx;
  publisher: { id: string; status: UserStatus };
  offerId: string;
}): Promise<PublisherApplication> {
  const { db, publisher, offerId } = opts;
  assertCanApply(publisher.status);
  try {
    return await db.transaction(async (tx) => {
      // `for key share` keeps the offer from being deleted until this transaction ends; an
      // offer deleted a moment before is simply not found.
      const [offer] = await tx
        .select({ id: offers.id })
        .from(offers)
        .where(and(eq(offers.id, offerId), eq(offers.status, 'active')))
        .for('key share');
      if (!offer) throw new AppError('not_found', 'Offer not found.', { status: 404 });
      await assertNotApplied(tx, publisher.id, offerId);
      // Insert or return the existing draft in one statement: concurrent requests wait on the
      // unique index and then take the update branch instead of adding a second draft.
      const [row] = await tx
        .insert(offerApplications)
        .values({ offerId, publisherId: publisher.id, status: 'draft' })
        .onConflictDoUpdate({
          target: [offerApplications.publisherId, offerApplications.offerId],
          targetWhere: sql`status = 'draft'`,
          set: { updatedAt: sql`now()` },
        })
        .returning();
      return toApplication(row!);
    });
  } catch (err) {
    // The offer was deleted between the check and the insert (other drivers, other paths).
    if (isForeignKeyViolation(err)) {
      throw new AppError(
        'not_found',
        'This offer was removed a moment ago, so you cannot apply to it.',
        {
          status: 404,
        },
      );
    }
    throw err;
  }
}

/** Closing the compliance dialog: deletes the publisher's own draft, nothing else. */
export async function deleteDraft(opts: {
  db: DbOrTx;
  publisherId: string;
  applicationId: string;
}): Promise<void> {
  const { db, publisherId, applicationId } = opts;
  if (!isUuid(applicationId)) throw applicationNotFound();
  const deleted = await db
    .delete(offerApplications)
    .where(
      and(
        eq(offerApplications.id, applicationId),
        eq(offerApplications.publisherId, publisherId),
        eq(offerApplications.status, 'draft'),
      ),
    )
    .returning({ id: offerApplications.id });
  if (deleted.length === 0) throw applicationNotFound();
}

/** Removes drafts untouched for 24 hours (dialogs abandoned without closing); returns how many. */
export async function deleteStaleDrafts(opts: {
  db: DbOrTx;
  now?: Date;
  maxAgeHours?: number;
}): Promise<number> {
  const now = opts.now ?? new Date();
  const cutoff = new Date(now.getTime() - (opts.maxAgeHours ?? DRAFT_MAX_AGE_HOURS) * 3_600_000);
  const deleted = await opts.db
    .delete(offerApplications)
    .where(and(eq(offerApplications.status, 'draft'), lt(offerApplications.updatedAt, cutoff)))
    .returning({ id: offerApplications.id });
  return deleted.length;
}
