import { and, desc, eq, lt, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  DRAFT_MAX_AGE_HOURS,
  PUBLISHER_MESSAGES,
  type PublisherApplication,
  type PublisherOfferList,
  type PublisherOffersQuery,
} from '../../../contract/publisher.ts';
import type { UserStatus } from '../../../contract/roles.ts';
import type { DbOrTx } from '../../db/client.ts';
import { countAll, listPage, searchAny, sortBy } from '../../db/list-query.ts';
import { toMoney } from '../../db/money.ts';
import { offerApplications, offers } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { assertCanApply } from './publisher.policy.ts';

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

const offerSortColumns = {
  created_at: offers.createdAt,
  payout: offers.payout,
  title: sql`lower(${offers.title})`,
  vertical: sql`lower(${offers.vertical})`,
} as const;

/**
 * Active offers, each with this publisher's non-draft application (drafts do not count),
 * searched by title or vertical, newest first unless sorted otherwise.
 */
export function listPublisherOffers(opts: {
  db: DbOrTx;
  publisherId: string;
  query: z.output<typeof PublisherOffersQuery>;
}): Promise<PublisherOfferList> {
  const { db, publisherId, query } = opts;
  const where = and(
    eq(offers.status, 'active'),
    searchAny(query.search, offers.title, offers.vertical),
  );
  return listPage({
    query,
    rows: ({ limit, offset }) =>
      db
        .select({
          offer: offers,
          applicationId: offerApplications.id,
          applicationStatus: offerApplications.status,
        })
        .from(offers)
        .leftJoin(
          offerApplications,
          and(
            eq(offerApplications.offerId, offers.id),
            eq(offerApplications.publisherId, publisherId),
            ne(offerApplications.status, 'draft'),
          ),
        )
        .where(where)
        .orderBy(...sortBy(offerSortColumns, query, offers.id))
        .limit(limit)
        .offset(offset),
    count: db.select({ n: countAll() }).from(offers).where(where),
    toItem: ({ offer, applicationId, applicationStatus }) => ({
      id: offer.id,
      title: offer.title,
      vertical: offer.vertical,
      payout: toMoney(offer.payout),
      script_instructions: offer.scriptInstructions,
      created_at: offer.createdAt.toISOString(),
      application_id: applicationId,
      application_status:
        applicationStatus && applicationStatus !== 'draft' ? applicationStatus : null,
    }),
  });
}

/**
 * Apply Now: a draft for an active offer. An open draft for the same offer is reused (and its
 * 24-hour clock restarted) so a double click or a reopened dialog leaves one draft.
 */
export async function startApplication(opts: {
  db: DbOrTx;
  publisher: { id: string; status: UserStatus };
  offerId: string;
}): Promise<PublisherApplication> {
  const { db, publisher, offerId } = opts;
  assertCanApply(publisher.status);
  return db.transaction(async (tx) => {
    const [offer] = await tx
      .select({ id: offers.id })
      .from(offers)
      .where(and(eq(offers.id, offerId), eq(offers.status, 'active')));
    if (!offer) throw new AppError('not_found', 'Offer not found.', { status: 404 });
    const existing = await tx
      .select()
      .from(offerApplications)
      .where(
        and(
          eq(offerApplications.publisherId, publisher.id),
          eq(offerApplications.offerId, offerId),
        ),
      )
      .orderBy(desc(offerApplications.updatedAt));
    if (existing.some((a) => a.status !== 'draft')) throw alreadyApplied();
    const draft = existing[0];
    if (draft) {
      const [row] = await tx
        .update(offerApplications)
        .set({ updatedAt: new Date() })
        .where(eq(offerApplications.id, draft.id))
        .returning();
      return toApplication(row!);
    }
    const [row] = await tx
      .insert(offerApplications)
      .values({ offerId, publisherId: publisher.id, status: 'draft' })
      .returning();
    return toApplication(row!);
  });
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
