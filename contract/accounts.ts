import { z } from 'zod';
import { accountFields, contactFields, FileLink, offerRef } from './admin-common.ts';
import { IsoDateTime, listQuery, pageOf, pageQuery, searchParam } from './list.ts';
import { Balance } from './money.ts';
import {
  otherNeedsNote,
  otherNeedsNoteIssue,
  PublisherReasonCode,
  ReviewNote,
} from './review-reasons.ts';
import {
  accountStatuses,
  BuyerStatus,
  PublisherStatus,
  SubmittedApplicationStatus,
} from './roles.ts';

/** Publishers and buyers as the admin manages them. */
/** A buyer status as input: active or blocked, said in a sentence when it is neither. */
export const BuyerStatusInput = z.enum(accountStatuses, {
  error: 'status must be active or blocked.',
});
// ---------------------------------------------------------------------------
// Publishers and buyers
// ---------------------------------------------------------------------------

export const PublisherListQuery = listQuery(
  ['created_at', 'name', 'email', 'status'],
  'created_at',
  {
    q: searchParam,
    status: PublisherStatus.optional(),
  },
);
export type PublisherListQuery = z.infer<typeof PublisherListQuery>;

export const AdminPublisher = z.object({
  ...accountFields,
  /** `active` is legacy and displays as Approved. */
  status: PublisherStatus,
  ...contactFields,
  has_agreement: z.boolean(),
  created_at: IsoDateTime,
});
export type AdminPublisher = z.infer<typeof AdminPublisher>;
export const PublisherList = pageOf(AdminPublisher);
export type PublisherList = z.infer<typeof PublisherList>;

/**
 * PATCH /admin/publishers/:id: Approve/Reject (pending), Block (approved/active), Unblock.
 * Rejecting or blocking (status blocked) needs a reason; the publisher is e-mailed it.
 */
export const UpdatePublisherStatus = z
  .object({
    status: PublisherStatus.exclude(['active'], {
      error: 'status must be approved, blocked or pending.',
    }),
    reason: PublisherReasonCode.optional(),
    note: ReviewNote,
  })
  .refine((v) => v.status !== 'blocked' || v.reason !== undefined, {
    error: 'Choose a reason for rejecting or blocking this publisher.',
    path: ['reason'],
  })
  .refine(otherNeedsNote, otherNeedsNoteIssue);
export type UpdatePublisherStatus = z.infer<typeof UpdatePublisherStatus>;

export const AuditEntry = z.object({
  id: z.number().int(),
  actor_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  /** e.g. publisher.approve, offer.update, payout.create. */
  action: z.string(),
  entity_type: z.string(),
  entity_id: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  created_at: IsoDateTime,
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** GET /admin/publishers/:id: everything the publisher's detail screen shows. */
export const PublisherDetail = z.object({
  publisher: AdminPublisher,
  agreement: FileLink.nullable(),
  applications: z.array(
    z.object({
      id: z.string(),
      ...offerRef,
      status: SubmittedApplicationStatus,
      created_at: IsoDateTime,
      io: FileLink.nullable(),
    }),
  ),
  /** Calls, and the money figures as every screen defines them (contract/money.ts Balance). */
  totals: Balance.extend({ leads: z.number().int() }),
  /** Newest first, at most 50. */
  audit: z.array(AuditEntry),
  /** Verified authenticator apps (two-factor sign-in); an admin may reset them (lost phone). */
  two_factor_apps: z.number().int(),
});
export type PublisherDetail = z.infer<typeof PublisherDetail>;

/** PUT /admin/publishers/:id/agreement answers the publisher and the new agreement. */
export const AgreementUploaded = z.object({ publisher: AdminPublisher, agreement: FileLink });
export type AgreementUploaded = z.infer<typeof AgreementUploaded>;

export const BuyerListQuery = listQuery(['created_at', 'name', 'email', 'status'], 'created_at', {
  q: searchParam,
  status: BuyerStatusInput.optional(),
});
export type BuyerListQuery = z.infer<typeof BuyerListQuery>;

export const AdminBuyer = z.object({
  ...accountFields,
  company_name: z.string().nullable(),
  status: BuyerStatus,
  email_confirmed: z.boolean(),
  /** Verified authenticator apps (two-factor sign-in); an admin may reset them (lost phone). */
  two_factor_apps: z.number().int(),
  created_at: IsoDateTime,
});
export type AdminBuyer = z.infer<typeof AdminBuyer>;
export const BuyerList = pageOf(AdminBuyer);
export type BuyerList = z.infer<typeof BuyerList>;

/** PATCH /admin/buyers/:id: Block / Unblock. */
export const UpdateBuyerStatus = z.object({
  status: BuyerStatusInput,
});
export type UpdateBuyerStatus = z.infer<typeof UpdateBuyerStatus>;

/** GET /admin/approved-publishers: the payout form's publisher picker. */
export const ApprovedPublishersQuery = z.object({
  ...pageQuery(200),
  q: searchParam,
});
export const ApprovedPublisher = z.object({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string(),
});
export const ApprovedPublisherList = pageOf(ApprovedPublisher);
export type ApprovedPublisherList = z.infer<typeof ApprovedPublisherList>;
