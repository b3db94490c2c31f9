import { z } from 'zod';
import { FileLink, offerRef, publisherRef, uuidParam } from './admin-common.ts';
import { IsoDateTime, listQuery, pageOf, searchParam } from './list.ts';
import {
  ApplicationReasonCode,
  otherNeedsNote,
  otherNeedsNoteIssue,
  PublisherReasonCode,
  ReviewNote,
} from './review-reasons.ts';
import { ApplicationStatus, SubmittedApplicationStatus } from './roles.ts';

/** Applications and compliance submissions as the admin reviews them. */
// ---------------------------------------------------------------------------
// Applications and compliance
// ---------------------------------------------------------------------------

export const ApplicationListQuery = listQuery(['created_at', 'status'], 'created_at', {
  q: searchParam,
  status: SubmittedApplicationStatus.optional(),
  offer_id: uuidParam('offer').optional(),
  publisher_id: uuidParam('publisher').optional(),
});
export type ApplicationListQuery = z.infer<typeof ApplicationListQuery>;

export const AdminApplication = z.object({
  id: z.string(),
  ...offerRef,
  ...publisherRef,
  status: SubmittedApplicationStatus,
  created_at: IsoDateTime,
  /** The IO document (approved applications only), or null when none is uploaded yet. */
  io: FileLink.nullable(),
  /** Why it was rejected (a code of contract/review-reasons.ts) and the reviewer's note. */
  reason: z.string().nullable(),
  note: z.string().nullable(),
  /** How many times compliance files were submitted (more than 1 after a resubmission). */
  submissions: z.number().int(),
});
export type AdminApplication = z.infer<typeof AdminApplication>;
export const ApplicationList = pageOf(AdminApplication);
export type ApplicationList = z.infer<typeof ApplicationList>;

/** The fields of a decision on pending rows: `approved`, or `rejectAs` with one of `reasons`. */
const decisionFields = <const R extends string, C extends z.ZodType<string>>(
  rejectAs: R,
  reasons: C,
) => ({
  status: z.enum(['approved', rejectAs], { error: `status must be approved or ${rejectAs}.` }),
  reason: reasons.optional(),
  note: ReviewNote,
});

/** The refinement that a decision `rejectAs` names its reason, else the `error` sentence. */
const reasonWhen = (
  rejectAs: string,
  error: string,
): [(v: { status: string; reason?: string | undefined }) => boolean, z.core.$ZodCustomParams] => [
  (v) => v.status !== rejectAs || v.reason !== undefined,
  { error, path: ['reason'] },
];

/** PATCH /admin/applications/:id: decide a pending application; a rejection needs a reason. */
export const DecideApplication = z
  .object(decisionFields('rejected', ApplicationReasonCode))
  .refine(...reasonWhen('rejected', 'Choose a reason for rejecting this application.'))
  .refine(otherNeedsNote, otherNeedsNoteIssue);
export type DecideApplication = z.infer<typeof DecideApplication>;

/** At most this many rows in one bulk decision. */
export const BULK_DECISION_MAX = 200;
const bulkIds = z
  .array(z.uuid({ error: 'Every id must be a valid id.' }))
  .min(1, { error: 'Select at least one row.' })
  .max(BULK_DECISION_MAX, { error: `Select at most ${BULK_DECISION_MAX} rows at once.` });

/** POST /admin/applications/bulk: approve or reject many pending applications, one reason. */
export const BulkDecideApplications = z
  .object({ ids: bulkIds, ...decisionFields('rejected', ApplicationReasonCode) })
  .refine(...reasonWhen('rejected', 'Choose a reason for rejecting these applications.'))
  .refine(otherNeedsNote, otherNeedsNoteIssue);
export type BulkDecideApplications = z.infer<typeof BulkDecideApplications>;

/** POST /admin/publishers/bulk: approve or reject many pending publishers, one reason. */
export const BulkDecidePublishers = z
  .object({ ids: bulkIds, ...decisionFields('blocked', PublisherReasonCode) })
  .refine(...reasonWhen('blocked', 'Choose a reason for rejecting these publishers.'))
  .refine(otherNeedsNote, otherNeedsNoteIssue);
export type BulkDecidePublishers = z.infer<typeof BulkDecidePublishers>;

/** What a bulk decision did: the rows changed, and each row left alone with why. */
export const BulkDecisionResult = z.object({
  decided: z.number().int(),
  skipped: z.array(z.object({ id: z.string(), message: z.string() })),
});
export type BulkDecisionResult = z.infer<typeof BulkDecisionResult>;

/** One compliance submission of an application, newest first, with its own decision. */
const submissionFields = {
  created_at: IsoDateTime,
  /** mp3/mp4 files with signed URLs valid 3600 s. */
  media: z.array(FileLink),
  /** The compliance document with a signed URL valid 3600 s. */
  document: FileLink,
  /** This submission's own decision and reason (null while it waits). */
  decision: z.enum(['approved', 'rejected']).nullable(),
  reason: z.string().nullable(),
  note: z.string().nullable(),
};
export const ApplicationSubmission = z.object({
  id: z.string(),
  ...submissionFields,
  decided_at: IsoDateTime.nullable(),
});
export type ApplicationSubmission = z.infer<typeof ApplicationSubmission>;

/** GET /admin/applications/:id/submissions: the application and every submission of it. */
export const ApplicationSubmissions = z.object({
  application: AdminApplication,
  submissions: z.array(ApplicationSubmission),
});
export type ApplicationSubmissions = z.infer<typeof ApplicationSubmissions>;

export const ComplianceListQuery = listQuery(['created_at'], 'created_at', {
  q: searchParam,
  status: SubmittedApplicationStatus.optional(),
});
export type ComplianceListQuery = z.infer<typeof ComplianceListQuery>;

export const ComplianceSubmission = z.object({
  id: z.string(),
  application_id: z.string(),
  application_status: ApplicationStatus,
  ...publisherRef,
  ...offerRef,
  ...submissionFields,
  /** True when the publisher submitted newer files for the same application. */
  superseded: z.boolean(),
});
export type ComplianceSubmission = z.infer<typeof ComplianceSubmission>;
export const ComplianceList = pageOf(ComplianceSubmission);
export type ComplianceList = z.infer<typeof ComplianceList>;
