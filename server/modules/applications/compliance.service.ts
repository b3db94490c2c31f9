import { and, eq, inArray, sql } from 'drizzle-orm';
import { type ComplianceSubmission, PUBLISHER_MESSAGES } from '../../../contract/publisher.ts';
import type { UserStatus } from '../../../contract/roles.ts';
import type { DbOrTx } from '../../db/client.ts';
import { onUniqueViolation } from '../../db/rows.ts';
import { complianceQuestionnaires, offerApplications, offers, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { emitEvent } from '../../events/emit.ts';
import { appLinks } from '../../notify/links.ts';
import { notifyAdmins } from '../../notify/notify.ts';
import { displayName, type StoredFile } from '../../storage/storage.ts';
import { assertCanApply } from './apply.policy.ts';
import {
  alreadyApplied,
  applicationNotFound,
  assertNotApplied,
  isUuid,
  toApplication,
} from './publisher-applications.service.ts';

/** The draft a compliance submission will move to pending. */
export type SubmittableDraft = { applicationId: string; offerId: string; publisherId: string };

/**
 * Checks, before any file is stored, that the application is the caller's own draft for an
 * active offer they have not already applied to, or their own rejected application (resubmitted
 * with new files, issue 16).
 */
export async function getSubmittableDraft(opts: {
  db: DbOrTx;
  publisher: { id: string; status: UserStatus };
  applicationId: string;
}): Promise<SubmittableDraft> {
  const { db, publisher, applicationId } = opts;
  assertCanApply(publisher.status);
  if (!isUuid(applicationId)) throw applicationNotFound();
  const [app] = await db
    .select({
      id: offerApplications.id,
      offerId: offerApplications.offerId,
      status: offerApplications.status,
      offerStatus: offers.status,
    })
    .from(offerApplications)
    .innerJoin(offers, eq(offers.id, offerApplications.offerId))
    .where(
      and(eq(offerApplications.id, applicationId), eq(offerApplications.publisherId, publisher.id)),
    );
  if (!app) throw applicationNotFound();
  if (app.offerStatus !== 'active') {
    throw new AppError('offer_unavailable', PUBLISHER_MESSAGES.offerUnavailable, { status: 409 });
  }
  // A rejected application takes new files (a resubmission); the earlier ones are kept.
  if (app.status === 'rejected') {
    return { applicationId: app.id, offerId: app.offerId, publisherId: publisher.id };
  }
  if (app.status !== 'draft') throw alreadyApplied();
  await assertNotApplied(db, publisher.id, app.offerId);
  return { applicationId: app.id, offerId: app.offerId, publisherId: publisher.id };
}

/**
 * Tells the admins a submission arrived (issue 16): a first one, or new files for a rejected
 * application (it then has more than one questionnaire).
 */
async function announceSubmission(
  tx: DbOrTx,
  draft: SubmittableDraft,
  publicUrl: string,
): Promise<void> {
  const [about] = await tx
    .select({
      offerTitle: offers.title,
      name: users.name,
      email: users.email,
      submissions: sql<number>`(select count(*)::int from ${complianceQuestionnaires} where ${complianceQuestionnaires.applicationId} = ${draft.applicationId})`,
    })
    .from(offers)
    .innerJoin(users, eq(users.id, draft.publisherId))
    .where(eq(offers.id, draft.offerId));
  if (!about) return;
  const who = about.name?.trim() || about.email;
  const again = about.submissions > 1;
  await emitEvent(tx, 'application.submitted', {
    application_id: draft.applicationId,
    offer_id: draft.offerId,
    publisher_id: draft.publisherId,
    resubmitted: again,
  });
  await notifyAdmins(tx, {
    kind: 'application_submitted',
    title: again
      ? `Application resubmitted: ${who} for ${about.offerTitle}`
      : `New application: ${who} for ${about.offerTitle}`,
    body: again
      ? `${who} sent new compliance files for the rejected application to ${about.offerTitle}. It waits for review.`
      : `${who} applied to ${about.offerTitle} with their compliance files. It waits for review.`,
    link: appLinks.adminApplication(draft.offerId, about.email),
    publicUrl,
  });
}

/**
 * The submission itself, after the files are stored (storeThenWrite, which removes them when
 * this fails): in one transaction the questionnaire is inserted with the file keys and the
 * draft becomes pending.
 */
export async function submitCompliance(opts: {
  db: DbOrTx;
  draft: SubmittableDraft;
  media: readonly StoredFile[];
  document: StoredFile;
  /** The portal's address, for the admins' e-mail link. */
  publicUrl: string;
}): Promise<ComplianceSubmission> {
  const { db, draft, media, document } = opts;
  return onUniqueViolation(
    () =>
      db.transaction(async (tx) => {
        const [questionnaire] = await tx
          .insert(complianceQuestionnaires)
          .values({
            publisherId: draft.publisherId,
            offerId: draft.offerId,
            applicationId: draft.applicationId,
            fileUrls: media.map((f) => f.key),
            documentUrl: document.key,
          })
          .returning();
        const [application] = await tx
          .update(offerApplications)
          .set({ status: 'pending', reviewReason: null, reviewNote: null, updatedAt: new Date() })
          .where(
            and(
              eq(offerApplications.id, draft.applicationId),
              eq(offerApplications.publisherId, draft.publisherId),
              inArray(offerApplications.status, ['draft', 'rejected']),
            ),
          )
          .returning();
        // Deleted meanwhile (closed in another tab, or swept): the transaction rolls back.
        if (!application) throw applicationNotFound();
        await announceSubmission(tx, draft, opts.publicUrl);
        return {
          application: toApplication(application),
          questionnaire: {
            id: questionnaire!.id,
            media_count: media.length,
            document_name: displayName(document.key),
            created_at: questionnaire!.createdAt.toISOString(),
          },
        };
      }),
    alreadyApplied,
  );
}
