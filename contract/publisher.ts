import { z } from 'zod';
import { ownOfferRef } from './admin-common.ts';
import { leadCallFields } from './leads.ts';
import {
  dateRangeQuery,
  fromNotAfterTo,
  IsoDateTime,
  listQuery,
  Money,
  pageOf,
  searchParam,
} from './list.ts';
import { Balance, payoutFields } from './money.ts';
import { OfferRules } from './offer-rules.ts';
import { offerAnswerFields } from './offers.ts';
import { ApplicationStatus, LeadStatus, SubmittedApplicationStatus } from './roles.ts';

/** Spec §5 texts the server answers with and the compliance dialog shows before sending. */
export const PUBLISHER_MESSAGES = {
  alreadyAppliedTitle: 'Already Applied',
  alreadyApplied: 'You have already submitted an application for this offer.',
  missingFilesTitle: 'Missing Files',
  missingFiles: 'Please upload both media files and a document.',
  tooManyFilesTitle: 'Too many files',
  tooManyFiles: 'You can upload a maximum of 3 media files.',
  accountPending:
    'Your account is pending approval. You can apply to offers once an admin approves it.',
  offerUnavailable: 'This offer is no longer available.',
} as const;

/** Compliance upload rules (spec §5, §9): 1 to 3 media files and exactly one document. */
export const COMPLIANCE_RULES = {
  mediaField: 'media',
  documentField: 'document',
  maxMediaFiles: 3,
  mediaTypes: ['mp3', 'mp4'],
  documentTypes: ['pdf', 'doc', 'docx'],
} as const;

/** Drafts the publisher never submitted are removed after this long. */
export const DRAFT_MAX_AGE_HOURS = 24;

/** Signed file URLs live this long (spec §9). */
export const SIGNED_URL_SECONDS = 3600;

/** Columns the publisher's lists sort by (the first is the default, newest first). */
export const PUBLISHER_SORTS = {
  offers: ['created_at', 'payout', 'title', 'vertical'],
  leads: ['timestamp', 'payout', 'call_duration', 'status', 'offer'],
  payouts: ['date', 'amount'],
  ios: ['created_at', 'offer'],
} as const;
export type OfferSort = (typeof PUBLISHER_SORTS.offers)[number];
export type LeadSort = (typeof PUBLISHER_SORTS.leads)[number];
export type PayoutSort = (typeof PUBLISHER_SORTS.payouts)[number];
export type IoSort = (typeof PUBLISHER_SORTS.ios)[number];

/** A submitted application's status as the publisher sees it (drafts are not shown as applied). */
export const ApplicationState = SubmittedApplicationStatus;
export type ApplicationState = SubmittedApplicationStatus;

// ---------- overview ----------

/** Kinds of events in Recent Activity. */
export const ActivityType = z.enum([
  'application_submitted',
  'application_approved',
  'application_rejected',
  'io_uploaded',
  'lead',
  'payout',
  'agreement',
]);
export type ActivityType = z.infer<typeof ActivityType>;

/** One line of Recent Activity, newest first. */
export const ActivityItem = z.object({
  type: ActivityType,
  title: z.string(),
  description: z.string(),
  at: IsoDateTime,
});
export type ActivityItem = z.infer<typeof ActivityItem>;

/** One day of the 30-day chart (UTC days, oldest first, days without leads included). */
export const DailyPoint = z.object({
  date: z.string().describe('YYYY-MM-DD (UTC)'),
  leads: z.number().int(),
  earnings: Money,
});
export type DailyPoint = z.infer<typeof DailyPoint>;

/** GET /api/v1/publisher/overview: the four cards, Recent Activity and the chart. */
export const PublisherOverview = z.object({
  /** Non-draft applications of this publisher. */
  applied_offers: z.number().int(),
  /** Approved leads' payouts plus adjustments (BALANCE_RULES.earned, stated under the card). */
  total_earnings: Money,
  /** Number of this publisher's leads. */
  total_leads: z.number().int(),
  /** Earned and not paid yet: owed + in a run (BALANCE_RULES.unpaid, stated under the card). */
  pending_payouts: Money,
  /** Every money figure, as every screen defines them (contract/money.ts Balance). */
  balance: Balance,
  recent_activity: z.array(ActivityItem),
  daily: z.array(DailyPoint),
});
export type PublisherOverview = z.infer<typeof PublisherOverview>;

// ---------- offers and applications ----------

/** An active offer with this publisher's non-draft application, if any. */
export const PublisherOffer = z.object({
  id: z.uuid(),
  ...offerAnswerFields,
  /** This publisher's own payout on the offer, set by the admin; null = `payout`. */
  your_payout: Money.nullable(),
  script_instructions: z.string().nullable(),
  /** What makes a call payable: buffer, duplicates, caps, states, open hours. */
  rules: OfferRules,
  created_at: IsoDateTime,
  /** Null until the publisher has submitted an application (drafts do not count). */
  application_id: z.uuid().nullable(),
  application_status: ApplicationState.nullable(),
  /** Why the application was rejected, in the reviewer's words (null unless rejected). */
  application_reason: z.string().nullable(),
  /** Tracking numbers (E.164) the network assigned to this publisher on this offer. */
  tracking_numbers: z.array(z.string()),
});
export type PublisherOffer = z.infer<typeof PublisherOffer>;

/** `search`: a case-insensitive part of the title or vertical. */
export const PublisherOffersQuery = listQuery(
  PUBLISHER_SORTS.offers,
  'created_at',
  { search: searchParam },
  50,
);
export type PublisherOffersQuery = z.input<typeof PublisherOffersQuery>;

export const PublisherOfferList = pageOf(PublisherOffer);
export type PublisherOfferList = z.infer<typeof PublisherOfferList>;

/** POST /api/v1/publisher/applications: starts a draft when Apply Now is clicked. */
export const CreateApplicationBody = z.object({
  offer_id: z.uuid({ error: 'Choose a valid offer.' }),
});
export type CreateApplicationBody = z.infer<typeof CreateApplicationBody>;

/** Any string: an id that is not a uuid simply matches no application (404). */
export const ApplicationIdParams = z.object({ id: z.string().max(100) });

/** An application as the publisher sees it. */
export const PublisherApplication = z.object({
  id: z.uuid(),
  offer_id: z.uuid(),
  status: ApplicationStatus,
  created_at: IsoDateTime,
});
export type PublisherApplication = z.infer<typeof PublisherApplication>;

/** POST /applications/:id/compliance (multipart `media` ×1–3, `document` ×1) answers this. */
export const ComplianceSubmission = z.object({
  application: PublisherApplication,
  questionnaire: z.object({
    id: z.uuid(),
    media_count: z.number().int(),
    document_name: z.string(),
    created_at: IsoDateTime,
  }),
});
export type ComplianceSubmission = z.infer<typeof ComplianceSubmission>;

// ---------- leads and payouts ----------

export const PublisherLeadsQuery = fromNotAfterTo(
  /** `offer` sorts by the offer's title. */
  listQuery(PUBLISHER_SORTS.leads, 'timestamp', {
    /** The tracker's call id, exactly. */
    q: searchParam,
    status: LeadStatus.optional(),
    /** First day (or instant) included and last day included, UTC. */
    ...dateRangeQuery,
  }),
);
export type PublisherLeadsQuery = z.input<typeof PublisherLeadsQuery>;

export const PublisherLead = z.object({
  id: z.uuid(),
  ...ownOfferRef,
  ...leadCallFields,
  /**
   * Why the lead has its status, as the rules (or the network) said it ("Duration 40 s under
   * the 90 s buffer"); shown on a rejected lead. Null when none was recorded.
   */
  status_reason: z.string().nullable(),
});
export type PublisherLead = z.infer<typeof PublisherLead>;

export const PublisherLeadList = pageOf(PublisherLead);
export type PublisherLeadList = z.infer<typeof PublisherLeadList>;

export const PublisherPayoutsQuery = listQuery(PUBLISHER_SORTS.payouts, 'date', {});
export type PublisherPayoutsQuery = z.input<typeof PublisherPayoutsQuery>;

export const PublisherPayout = z.object({
  id: z.uuid(),
  ...payoutFields,
  /** `ST-2026-000123` (contract/money.ts statementNumber); null for a payout never numbered. */
  statement_number: z.string().nullable(),
});
export type PublisherPayout = z.infer<typeof PublisherPayout>;

export const PublisherPayoutList = pageOf(PublisherPayout);
export type PublisherPayoutList = z.infer<typeof PublisherPayoutList>;

// ---------- files ----------

/** A private file handed out as a signed URL that expires. */
export const SignedFile = z.object({
  /** Original file name, without the storage prefix. */
  file_name: z.string(),
  /** Relative URL `/files/...?...&sig=...`, valid until expires_at. */
  url: z.string(),
  expires_at: IsoDateTime,
});
export type SignedFile = z.infer<typeof SignedFile>;

/** GET /api/v1/publisher/documents: the publisher's own marketing agreement, or null. */
export const PublisherDocuments = z.object({
  agreement: SignedFile.nullable(),
});
export type PublisherDocuments = z.infer<typeof PublisherDocuments>;

/** `created_at` sorts by the day of the application (applied_at); `offer` by the offer's title. */
export const PublisherIosQuery = listQuery(PUBLISHER_SORTS.ios, 'created_at', {
  /** Case-insensitive part of the offer title. */
  q: searchParam,
});
export type PublisherIosQuery = z.input<typeof PublisherIosQuery>;

/** An approved application of this publisher that has an IO document. */
export const PublisherIo = z.object({
  application_id: z.uuid(),
  ...ownOfferRef,
  status: z.literal('approved'),
  applied_at: IsoDateTime,
  file: SignedFile,
});
export type PublisherIo = z.infer<typeof PublisherIo>;

export const PublisherIoList = pageOf(PublisherIo);
export type PublisherIoList = z.infer<typeof PublisherIoList>;
