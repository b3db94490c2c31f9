import { z } from 'zod';
import { emailField } from './email.ts';
import {
  dateRangeQuery,
  fromNotAfterTo,
  IsoDateTime,
  IsoDateTimeInput,
  Money,
  moneyInput,
  pageOf,
  pageQuery,
  searchParam,
  sortQuery,
} from './list.ts';
import { Balance, Currency, PayoutHoldCondition, payoutHoldConditions } from './money.ts';
import {
  OfferRules,
  OfferRulesInput,
  PayoutOverride,
  PayoutOverridesInput,
} from './offer-rules.ts';
import {
  ApplicationReasonCode,
  otherNeedsNote,
  otherNeedsNoteIssue,
  PublisherReasonCode,
  ReviewNote,
} from './review-reasons.ts';
import {
  ApplicationStatus,
  accountStatuses,
  BuyerStatus,
  LeadStatus,
  OfferStatus,
  PublisherStatus,
  SubmittedApplicationStatus,
} from './roles.ts';
import { CompanyAddress, PhoneCountry, TimeZoneName } from './settings.ts';

/** A buyer status as input: active or blocked, said in a sentence when it is neither. */
const BuyerStatusInput = z.enum(accountStatuses, { error: 'status must be active or blocked.' });

// ---------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------

const uuidParam = (what: string) => z.uuid({ error: `This is not a valid ${what} id.` });

/** `:id` path parameter of every admin route. */
export const IdParams = z.object({ id: z.uuid({ error: 'This is not a valid id.' }) });

/** A file the admin can open: its original name and a signed, expiring URL. */
export const FileLink = z.object({ name: z.string(), url: z.string() });
export type FileLink = z.infer<typeof FileLink>;

/**
 * Uploads (PUT …/agreement, …/io, /settings/logo) are multipart/form-data with one part named
 * `file`; these are the types each accepts (by content and extension).
 */
export const uploadTypes = {
  agreement: ['pdf', 'doc', 'docx'],
  io: ['pdf', 'jpg', 'jpeg', 'png'],
  logo: ['png', 'jpg', 'jpeg', 'svg'],
} as const;

// ---------------------------------------------------------------------------
// Stats
// ---------------------------------------------------------------------------

/** GET /admin/stats: the three dashboard cards. */
export const AdminStats = z.object({
  pending_publishers: z.number().int(),
  pending_applications: z.number().int(),
  /** Payouts marked paid, the whole network (the Total Payouts card). */
  total_payouts: Money,
  /** The network's money figures (paid and recorded apart), as every screen defines them. */
  balance: Balance,
});
export type AdminStats = z.infer<typeof AdminStats>;

/** GET /admin/stats/daily?days=30: the dashboard chart. */
export const DailyStatsQuery = z.object({
  days: z.coerce
    .number({ error: 'days must be a whole number from 1 to 366.' })
    .int({ error: 'days must be a whole number from 1 to 366.' })
    .min(1, { error: 'days must be a whole number from 1 to 366.' })
    .max(366, { error: 'days must be a whole number from 1 to 366.' })
    .default(30),
});
export const DailyStats = z.object({
  /** One entry per day of the network's time zone, oldest first, today last; quiet days zero. */
  days: z.array(z.object({ date: z.string(), leads: z.number().int(), payouts: Money })),
});
export type DailyStats = z.infer<typeof DailyStats>;

// ---------------------------------------------------------------------------
// Publishers and buyers
// ---------------------------------------------------------------------------

export const PublisherListQuery = z.object({
  ...pageQuery(),
  q: searchParam,
  status: PublisherStatus.optional(),
  ...sortQuery(['created_at', 'name', 'email', 'status'] as const, 'created_at'),
});
export type PublisherListQuery = z.infer<typeof PublisherListQuery>;

export const AdminPublisher = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  /** `active` is legacy and displays as Approved. */
  status: PublisherStatus,
  business_legal_name: z.string().nullable(),
  phone_number: z.string().nullable(),
  whatsapp_number: z.string().nullable(),
  ms_teams_id: z.string().nullable(),
  address: z.string().nullable(),
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
      offer_id: z.string(),
      offer_title: z.string(),
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

export const BuyerListQuery = z.object({
  ...pageQuery(),
  q: searchParam,
  status: BuyerStatusInput.optional(),
  ...sortQuery(['created_at', 'name', 'email', 'status'] as const, 'created_at'),
});
export type BuyerListQuery = z.infer<typeof BuyerListQuery>;

export const AdminBuyer = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
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

// ---------------------------------------------------------------------------
// Offers
// ---------------------------------------------------------------------------

const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, { error: `${label} is required.` })
    .max(max, { error: `${label} can be at most ${max} characters.` });

export const OfferListQuery = z.object({
  ...pageQuery(),
  q: searchParam,
  status: OfferStatus.optional(),
  vertical: z.string().trim().max(100).optional(),
  ...sortQuery(['created_at', 'title', 'vertical', 'payout', 'status'] as const, 'created_at'),
});
export type OfferListQuery = z.infer<typeof OfferListQuery>;

export const AdminOffer = z.object({
  id: z.string(),
  title: z.string(),
  vertical: z.string(),
  payout: Money,
  script_instructions: z.string().nullable(),
  status: OfferStatus,
  /** What makes an ingested call payable (contract/offer-rules.ts). */
  rules: OfferRules,
  /** Publishers paid another amount than `payout` on this offer. */
  payout_overrides: z.array(PayoutOverride),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
});
export type AdminOffer = z.infer<typeof AdminOffer>;
export const OfferList = pageOf(AdminOffer);
export type OfferList = z.infer<typeof OfferList>;

export const CreateOffer = z.object({
  title: requiredText('Title', 200),
  vertical: requiredText('Vertical', 100),
  payout: moneyInput('Payout'),
  script_instructions: z
    .string()
    .max(20_000, { error: 'Script instructions can be at most 20000 characters.' })
    .nullable()
    .optional(),
  status: OfferStatus.default('active'),
  /** Omitted: no rules (every completed call pays). */
  rules: OfferRulesInput.optional(),
  payout_overrides: PayoutOverridesInput.optional(),
});
export type CreateOffer = z.input<typeof CreateOffer>;

export const UpdateOffer = z
  .object({
    title: requiredText('Title', 200),
    vertical: requiredText('Vertical', 100),
    payout: moneyInput('Payout'),
    script_instructions: z
      .string()
      .max(20_000, { error: 'Script instructions can be at most 20000 characters.' })
      .nullable(),
    status: OfferStatus,
    /** Replaces all the rules (an omitted rule inside is cleared). */
    rules: OfferRulesInput,
    /** Replaces the whole list. */
    payout_overrides: PayoutOverridesInput,
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { error: 'Nothing to change.' });
export type UpdateOffer = z.infer<typeof UpdateOffer>;

// ---------------------------------------------------------------------------
// Applications and compliance
// ---------------------------------------------------------------------------

export const ApplicationListQuery = z.object({
  ...pageQuery(),
  q: searchParam,
  status: SubmittedApplicationStatus.optional(),
  offer_id: uuidParam('offer').optional(),
  publisher_id: uuidParam('publisher').optional(),
  ...sortQuery(['created_at', 'status'] as const, 'created_at'),
});
export type ApplicationListQuery = z.infer<typeof ApplicationListQuery>;

export const AdminApplication = z.object({
  id: z.string(),
  offer_id: z.string(),
  offer_title: z.string(),
  publisher_id: z.string(),
  publisher_name: z.string().nullable(),
  publisher_email: z.string(),
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

/** PATCH /admin/applications/:id: decide a pending application; a rejection needs a reason. */
export const DecideApplication = z
  .object({
    status: z.enum(['approved', 'rejected'], { error: 'status must be approved or rejected.' }),
    reason: ApplicationReasonCode.optional(),
    note: ReviewNote,
  })
  .refine((v) => v.status !== 'rejected' || v.reason !== undefined, {
    error: 'Choose a reason for rejecting this application.',
    path: ['reason'],
  })
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
  .object({
    ids: bulkIds,
    status: z.enum(['approved', 'rejected'], { error: 'status must be approved or rejected.' }),
    reason: ApplicationReasonCode.optional(),
    note: ReviewNote,
  })
  .refine((v) => v.status !== 'rejected' || v.reason !== undefined, {
    error: 'Choose a reason for rejecting these applications.',
    path: ['reason'],
  })
  .refine(otherNeedsNote, otherNeedsNoteIssue);
export type BulkDecideApplications = z.infer<typeof BulkDecideApplications>;

/** POST /admin/publishers/bulk: approve or reject many pending publishers, one reason. */
export const BulkDecidePublishers = z
  .object({
    ids: bulkIds,
    status: z.enum(['approved', 'blocked'], { error: 'status must be approved or blocked.' }),
    reason: PublisherReasonCode.optional(),
    note: ReviewNote,
  })
  .refine((v) => v.status !== 'blocked' || v.reason !== undefined, {
    error: 'Choose a reason for rejecting these publishers.',
    path: ['reason'],
  })
  .refine(otherNeedsNote, otherNeedsNoteIssue);
export type BulkDecidePublishers = z.infer<typeof BulkDecidePublishers>;

/** What a bulk decision did: the rows changed, and each row left alone with why. */
export const BulkDecisionResult = z.object({
  decided: z.number().int(),
  skipped: z.array(z.object({ id: z.string(), message: z.string() })),
});
export type BulkDecisionResult = z.infer<typeof BulkDecisionResult>;

/** One compliance submission of an application, newest first, with its own decision. */
export const ApplicationSubmission = z.object({
  id: z.string(),
  created_at: IsoDateTime,
  media: z.array(FileLink),
  document: FileLink,
  decision: z.enum(['approved', 'rejected']).nullable(),
  reason: z.string().nullable(),
  note: z.string().nullable(),
  decided_at: IsoDateTime.nullable(),
});
export type ApplicationSubmission = z.infer<typeof ApplicationSubmission>;

/** GET /admin/applications/:id/submissions: the application and every submission of it. */
export const ApplicationSubmissions = z.object({
  application: AdminApplication,
  submissions: z.array(ApplicationSubmission),
});
export type ApplicationSubmissions = z.infer<typeof ApplicationSubmissions>;

export const ComplianceListQuery = z.object({
  ...pageQuery(),
  q: searchParam,
  status: SubmittedApplicationStatus.optional(),
  ...sortQuery(['created_at'] as const, 'created_at'),
});
export type ComplianceListQuery = z.infer<typeof ComplianceListQuery>;

export const ComplianceSubmission = z.object({
  id: z.string(),
  application_id: z.string(),
  application_status: ApplicationStatus,
  publisher_id: z.string(),
  publisher_name: z.string().nullable(),
  publisher_email: z.string(),
  offer_id: z.string(),
  offer_title: z.string(),
  created_at: IsoDateTime,
  /** mp3/mp4 files with signed URLs valid 3600 s. */
  media: z.array(FileLink),
  /** The compliance document with a signed URL valid 3600 s. */
  document: FileLink,
  /** This submission's own decision and reason (null while it waits). */
  decision: z.enum(['approved', 'rejected']).nullable(),
  reason: z.string().nullable(),
  note: z.string().nullable(),
  /** True when the publisher submitted newer files for the same application. */
  superseded: z.boolean(),
});
export type ComplianceSubmission = z.infer<typeof ComplianceSubmission>;
export const ComplianceList = pageOf(ComplianceSubmission);
export type ComplianceList = z.infer<typeof ComplianceList>;

// ---------------------------------------------------------------------------
// Leads
// ---------------------------------------------------------------------------

/** The leads list's filters and sort; the list pages them, the CSV export takes them all. */
const leadFilter = {
  /**
   * Finds a call by what the tracker shows: its call id, or the caller's or the tracking
   * number's digits in any format (`(310) 555-0182`, `+13105550182`).
   */
  q: searchParam,
  status: LeadStatus.optional(),
  publisher_id: uuidParam('publisher').optional(),
  offer_id: uuidParam('offer').optional(),
  /** The caller's state (`NY`); `none`: calls without a state. Reports drill in with it. */
  state: z.string().trim().max(40, { error: 'The state can be at most 40 characters.' }).optional(),
  /** The vertical of the lead's offer. */
  vertical: z
    .string()
    .trim()
    .max(200, { error: 'The vertical can be at most 200 characters.' })
    .optional(),
  ...dateRangeQuery,
  ...sortQuery(['timestamp', 'payout', 'call_duration'] as const, 'timestamp'),
};
export const LeadListQuery = fromNotAfterTo(z.object({ ...pageQuery(), ...leadFilter }));
export type LeadListQuery = z.infer<typeof LeadListQuery>;
/** GET /admin/leads.csv: the list's filters and sort, without paging. */
export const LeadCsvQuery = fromNotAfterTo(z.object(leadFilter));
export type LeadCsvQuery = z.infer<typeof LeadCsvQuery>;

export const AdminLead = z.object({
  id: z.string(),
  publisher_id: z.string(),
  publisher_name: z.string().nullable(),
  publisher_email: z.string(),
  offer_id: z.string(),
  offer_title: z.string(),
  payout: Money,
  status: LeadStatus,
  /** Minutes. */
  call_duration: z.number().int(),
  timestamp: IsoDateTime,
  /** The tracker's call id (null for a lead recorded by hand). */
  call_id: z.string().nullable(),
  /** The caller in E.164 (as sent when it could not be read as a number). */
  caller: z.string().nullable(),
});
export type AdminLead = z.infer<typeof AdminLead>;
export const LeadList = pageOf(AdminLead);
export type LeadList = z.infer<typeof LeadList>;

/** POST /admin/leads: record a lead by hand. */
export const CreateLead = z.object({
  publisher_id: z.uuid({ error: 'Please select a publisher.' }),
  offer_id: z.uuid({ error: 'Please select an offer.' }),
  /** Defaults to the offer's payout. */
  payout: moneyInput('Payout').optional(),
  status: LeadStatus.default('pending'),
  call_duration: z
    .number({ error: 'Call duration must be a whole number of minutes.' })
    .int({ error: 'Call duration must be a whole number of minutes.' })
    .min(0, { error: 'Call duration cannot be negative.' })
    .max(100_000, { error: 'Call duration is too long.' })
    .default(0),
  /** Defaults to now; may not lie in the future. */
  timestamp: IsoDateTimeInput('Use an ISO date-time for the timestamp.').optional(),
});
export type CreateLead = z.input<typeof CreateLead>;

/** PATCH /admin/leads/:id: a status set by hand, with its reason (contract/lead-actions.ts). */
export { UpdateLeadStatus } from './lead-actions.ts';

// ---------------------------------------------------------------------------
// Payouts
// ---------------------------------------------------------------------------

/** The payouts list's filters and sort; the list pages them, the CSV export takes them all. */
const payoutFilter = {
  publisher_id: uuidParam('publisher').optional(),
  /** `recorded`: in a run, not yet paid; `paid`: marked paid. */
  status: z.enum(['recorded', 'paid'], { error: 'Status must be recorded or paid.' }).optional(),
  ...dateRangeQuery,
  ...sortQuery(['date', 'amount'] as const, 'date'),
};
export const PayoutListQuery = fromNotAfterTo(z.object({ ...pageQuery(), ...payoutFilter }));
export type PayoutListQuery = z.infer<typeof PayoutListQuery>;
/** GET /admin/payouts.csv: the list's filters and sort, without paging. */
export const PayoutCsvQuery = fromNotAfterTo(z.object(payoutFilter));
export type PayoutCsvQuery = z.infer<typeof PayoutCsvQuery>;

export const AdminPayout = z.object({
  id: z.string(),
  publisher_id: z.string(),
  publisher_name: z.string().nullable(),
  publisher_email: z.string(),
  amount: Money,
  notes: z.string().nullable(),
  date: IsoDateTime,
  /** The payout run that created it; null for payouts recorded before runs existed. */
  run_id: z.string().nullable(),
  status: z.enum(['recorded', 'paid']),
  reference: z.string().nullable(),
  /** `ST-2026-000123` (contract/money.ts statementNumber); null for a payout never numbered. */
  statement_number: z.string().nullable(),
});
export type AdminPayout = z.infer<typeof AdminPayout>;
export const PayoutList = pageOf(AdminPayout);
export type PayoutList = z.infer<typeof PayoutList>;

/** POST /admin/payouts: dated now, only for approved publishers. */
export const CreatePayout = z.object({
  publisher_id: z.uuid({ error: 'Please select a publisher.' }),
  /**
   * What the money is (issue 14): `advance` (default) pays ahead of the publisher's leads and is
   * deducted from the next run; `bonus` and `correction` add to the earnings and pay them.
   */
  reason: z
    .enum(['advance', 'bonus', 'correction'], {
      error: 'Reason must be advance, bonus or correction.',
    })
    .default('advance'),
  amount: moneyInput('Amount', { positive: true }),
  notes: z
    .string()
    .trim()
    .max(2000, { error: 'Notes can be at most 2000 characters.' })
    .nullable()
    .optional(),
});
export type CreatePayout = z.input<typeof CreatePayout>;

// ---------------------------------------------------------------------------
// Campaigns
// ---------------------------------------------------------------------------

export const CampaignListQuery = z.object({
  ...pageQuery(),
  q: searchParam,
  buyer_id: uuidParam('buyer').optional(),
  ...sortQuery(['created_at', 'name', 'budget', 'start_date'] as const, 'created_at'),
});
export type CampaignListQuery = z.infer<typeof CampaignListQuery>;

export const AdminCampaign = z.object({
  id: z.string(),
  buyer_id: z.string(),
  buyer_name: z.string().nullable(),
  buyer_email: z.string(),
  name: z.string(),
  goal: z.string().nullable(),
  target_audience: z.string().nullable(),
  location: z.string().nullable(),
  budget: Money.nullable(),
  /** `YYYY-MM-DD` or null. */
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  created_at: IsoDateTime,
});
export type AdminCampaign = z.infer<typeof AdminCampaign>;
export const CampaignList = pageOf(AdminCampaign);
export type CampaignList = z.infer<typeof CampaignList>;

// ---------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------

/** GET /admin/settings: every field; logo_url is the public URL of the logo or null. */
export const AdminSettings = z.object({
  company_name: z.string(),
  logo_url: z.string().nullable(),
  welcome_message: z.string(),
  support_email: z.string(),
  timezone: z.string(),
  /** The network's currency (ISO 4217), shown with its symbol on every amount. */
  currency: z.string(),
  /** "All owed above threshold" in a payout run pays publishers owed at least this. */
  min_payout: Money,
  /** The country (ISO 3166 alpha-2) a phone number sent without its country code is read in. */
  phone_country: z.string(),
  /** The network's postal address, several lines, printed on statements; null = not printed. */
  company_address: z.string().nullable(),
  /** Which conditions hold a publisher's payout in a run (contract/money.ts). */
  payout_holds: z.array(z.enum(payoutHoldConditions)),
  updated_at: IsoDateTime,
});
export type AdminSettings = z.infer<typeof AdminSettings>;

export const UpdateSettings = z
  .object({
    company_name: requiredText('Company name', 120),
    welcome_message: z
      .string({ error: 'Welcome message must be text.' })
      .trim()
      .max(2000, { error: 'Welcome message can be at most 2000 characters.' }),
    support_email: emailField('Support e-mail must be a valid e-mail address.'),
    timezone: TimeZoneName,
    currency: Currency,
    min_payout: moneyInput('Minimum payout'),
    phone_country: PhoneCountry,
    company_address: CompanyAddress,
    payout_holds: z
      .array(PayoutHoldCondition, { error: 'payout_holds must be a list of hold conditions.' })
      .max(payoutHoldConditions.length, { error: 'Each hold condition once.' })
      .refine((v) => new Set(v).size === v.length, { error: 'Each hold condition once.' }),
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { error: 'Nothing to change.' });
export type UpdateSettings = z.infer<typeof UpdateSettings>;

/** The logo upload's size limit, enforced on the server. */
export const LOGO_MAX_BYTES = 5 * 1024 * 1024;

// ---------------------------------------------------------------------------
// Audit
// ---------------------------------------------------------------------------

export const auditEntityTypes = [
  'admin',
  'publisher',
  'buyer',
  'offer',
  'application',
  'lead',
  'payout',
  'settings',
  'integration',
  'lead_import',
  'payout_run',
] as const;

export const AuditListQuery = z.object({
  ...pageQuery(),
  entity_type: z
    .enum(auditEntityTypes, {
      error: `entity_type must be one of: ${auditEntityTypes.join(', ')}.`,
    })
    .optional(),
  entity_id: z.string().trim().max(100).optional(),
  actor_id: uuidParam('user').optional(),
});
export type AuditListQuery = z.infer<typeof AuditListQuery>;
export const AuditList = pageOf(AuditEntry);
export type AuditList = z.infer<typeof AuditList>;
