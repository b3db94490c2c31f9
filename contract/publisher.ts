import { z } from 'zod';
import { DATE_RANGE_MESSAGE, isInDateRange } from './dates.ts';
import { pageOf, pageQuery } from './errors.ts';
import { LeadStatus } from './roles.ts';

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

const isoDateTime = z.string().describe('ISO 8601 timestamp');
/** Money as a JSON number rounded to two decimals. */
const money = z.number();

/** True for a `YYYY-MM-DD` string naming a day that exists. */
export const isRealDate = (s: string) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};
/** A calendar day `YYYY-MM-DD` that exists (no 2024-02-30). */
export const IsoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date in the form YYYY-MM-DD.')
  .refine(isRealDate, 'This date does not exist.')
  .refine(isInDateRange, DATE_RANGE_MESSAGE);

// ---------- list sorting and search ----------

/** `order` of a sortable list; each list's default is newest first. */
export const SortOrder = z.enum(['asc', 'desc'], { error: 'Order must be asc or desc.' });
export type SortOrder = z.infer<typeof SortOrder>;

/** `sort` of a list: one of the whitelisted columns, with the list's default. */
export const sortParam = <T extends readonly [string, ...string[]]>(values: T, def: T[number]) =>
  z.enum(values, { error: `Sort by one of: ${values.join(', ')}.` }).default(def);

/** A list's search box: trimmed, blank means no search. */
export const searchParam = z
  .string()
  .trim()
  .max(200, { error: 'The search can be at most 200 characters.' })
  .optional();

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

export const ApplicationState = z.enum(['pending', 'approved', 'rejected']);
export type ApplicationState = z.infer<typeof ApplicationState>;

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
  at: isoDateTime,
});
export type ActivityItem = z.infer<typeof ActivityItem>;

/** One day of the 30-day chart (UTC days, oldest first, days without leads included). */
export const DailyPoint = z.object({
  date: z.string().describe('YYYY-MM-DD (UTC)'),
  leads: z.number().int(),
  earnings: money,
});
export type DailyPoint = z.infer<typeof DailyPoint>;

/** GET /api/v1/publisher/overview: the four cards, Recent Activity and the chart. */
export const PublisherOverview = z.object({
  /** Non-draft applications of this publisher. */
  applied_offers: z.number().int(),
  /** Sum of the payouts of this publisher's leads. */
  total_earnings: money,
  /** Number of this publisher's leads. */
  total_leads: z.number().int(),
  /** Sum of this publisher's payouts amounts (spec §7). */
  pending_payouts: money,
  recent_activity: z.array(ActivityItem),
  daily: z.array(DailyPoint),
});
export type PublisherOverview = z.infer<typeof PublisherOverview>;

// ---------- offers and applications ----------

/** An active offer with this publisher's non-draft application, if any. */
export const PublisherOffer = z.object({
  id: z.uuid(),
  title: z.string(),
  vertical: z.string(),
  payout: money,
  script_instructions: z.string().nullable(),
  created_at: isoDateTime,
  /** Null until the publisher has submitted an application (drafts do not count). */
  application_id: z.uuid().nullable(),
  application_status: ApplicationState.nullable(),
});
export type PublisherOffer = z.infer<typeof PublisherOffer>;

export const PublisherOffersQuery = z.object({
  ...pageQuery,
  page_size: z.coerce.number().int().min(1).max(200).default(50),
  /** Case-insensitive part of the title or vertical. */
  search: searchParam,
  sort: sortParam(PUBLISHER_SORTS.offers, 'created_at'),
  order: SortOrder.default('desc'),
});
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
  status: z.enum(['draft', 'pending', 'approved', 'rejected']),
  created_at: isoDateTime,
});
export type PublisherApplication = z.infer<typeof PublisherApplication>;

/** POST /applications/:id/compliance (multipart `media` ×1–3, `document` ×1) answers this. */
export const ComplianceSubmission = z.object({
  application: PublisherApplication,
  questionnaire: z.object({
    id: z.uuid(),
    media_count: z.number().int(),
    document_name: z.string(),
    created_at: isoDateTime,
  }),
});
export type ComplianceSubmission = z.infer<typeof ComplianceSubmission>;

// ---------- leads and payouts ----------

export const PublisherLeadsQuery = z
  .object({
    ...pageQuery,
    status: LeadStatus.optional(),
    /** First day included (UTC). */
    from: IsoDay.optional(),
    /** Last day included (UTC). */
    to: IsoDay.optional(),
    /** `offer` sorts by the offer's title. */
    sort: sortParam(PUBLISHER_SORTS.leads, 'timestamp'),
    order: SortOrder.default('desc'),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: 'The start date cannot be after the end date.',
    path: ['to'],
  });
export type PublisherLeadsQuery = z.input<typeof PublisherLeadsQuery>;

export const PublisherLead = z.object({
  id: z.uuid(),
  offer_id: z.uuid(),
  offer_title: z.string(),
  payout: money,
  status: LeadStatus,
  /** Minutes. */
  call_duration: z.number().int(),
  timestamp: isoDateTime,
});
export type PublisherLead = z.infer<typeof PublisherLead>;

export const PublisherLeadList = pageOf(PublisherLead);
export type PublisherLeadList = z.infer<typeof PublisherLeadList>;

export const PublisherPayoutsQuery = z.object({
  ...pageQuery,
  sort: sortParam(PUBLISHER_SORTS.payouts, 'date'),
  order: SortOrder.default('desc'),
});
export type PublisherPayoutsQuery = z.input<typeof PublisherPayoutsQuery>;

export const PublisherPayout = z.object({
  id: z.uuid(),
  amount: money,
  notes: z.string().nullable(),
  date: isoDateTime,
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
  expires_at: isoDateTime,
});
export type SignedFile = z.infer<typeof SignedFile>;

/** GET /api/v1/publisher/documents: the publisher's own marketing agreement, or null. */
export const PublisherDocuments = z.object({
  agreement: SignedFile.nullable(),
});
export type PublisherDocuments = z.infer<typeof PublisherDocuments>;

export const PublisherIosQuery = z.object({
  ...pageQuery,
  /** Case-insensitive part of the offer title. */
  q: searchParam,
  /** `created_at` is the day of the application (applied_at); `offer` the offer's title. */
  sort: sortParam(PUBLISHER_SORTS.ios, 'created_at'),
  order: SortOrder.default('desc'),
});
export type PublisherIosQuery = z.input<typeof PublisherIosQuery>;

/** An approved application of this publisher that has an IO document. */
export const PublisherIo = z.object({
  application_id: z.uuid(),
  offer_id: z.uuid(),
  offer_title: z.string(),
  status: z.literal('approved'),
  applied_at: isoDateTime,
  file: SignedFile,
});
export type PublisherIo = z.infer<typeof PublisherIo>;

export const PublisherIoList = pageOf(PublisherIo);
export type PublisherIoList = z.infer<typeof PublisherIoList>;
