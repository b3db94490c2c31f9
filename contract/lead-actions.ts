import { z } from 'zod';
import { optionalNote, optionalText, uuidParam } from './admin-common.ts';
import { dateRangeQuery, fromNotAfterTo, IsoDateTime, Money, searchParam } from './list.ts';
import { reasonNotAllowed } from './review-reasons.ts';
import { LeadStatus } from './roles.ts';

/**
 * What an admin does to leads by hand (issue 13): a status set with a reason (one lead or many
 * at once), the filtered totals above the leads list, and the CSV import. A status set by hand
 * is kept against later tracker events (leads.status_overridden_at).
 */

// ---------------------------------------------------------------------------
// Reasons of a status set by hand
// ---------------------------------------------------------------------------

/**
 * The reasons an admin picks from, per status the lead is set to (issue 27 item 4): approving,
 * setting back to pending and rejecting each have their own list, so a lead never reads
 * "Rejected: Accepted by the buyer". `other` (in every list) needs the free text. Stored reasons
 * are sentences (`reasonSentence`), so renaming or moving a reason leaves them readable.
 */
export const leadReasons = {
  approved: {
    reviewed_recording: 'Recording reviewed',
    buyer_accepted: 'Accepted by the buyer',
    dispute_upheld: 'The publisher’s dispute was upheld',
    rejected_in_error: 'Rejected by mistake',
    other: 'Other',
  },
  pending: {
    review_again: 'To be reviewed again',
    buyer_reviewing: 'Waiting for the buyer’s decision',
    set_in_error: 'Status set by mistake',
    other: 'Other',
  },
  rejected: {
    not_qualified: 'Recording reviewed: the caller did not qualify',
    buyer_returned: 'Returned by the buyer',
    duplicate: 'Duplicate call',
    too_short: 'Call too short',
    outside_area: 'Caller outside the allowed area',
    outside_hours: 'Outside open hours',
    invalid: 'Invalid or fraudulent call',
    other: 'Other',
  },
} as const satisfies Record<LeadStatus, Record<string, string>>;

/** Every lead reason with its label, whatever the status. */
export const leadReasonLabels = {
  ...leadReasons.approved,
  ...leadReasons.pending,
  ...leadReasons.rejected,
} as const;
export type LeadReason = keyof typeof leadReasonLabels;
const leadReasonKeys = Object.keys(leadReasonLabels) as [LeadReason, ...LeadReason[]];

/** What setting a lead to each status is called in a sentence ("not a reason to …"). */
const leadActions: Record<LeadStatus, string> = {
  approved: 'approve a lead',
  pending: 'set a lead back to pending',
  rejected: 'reject a lead',
};

/** True when `reason` is one of the reasons of setting a lead to `status`. */
export const isLeadReasonOf = (status: LeadStatus, reason: string): boolean =>
  Object.hasOwn(leadReasons[status], reason);

export const REASON_REQUIRED = 'Choose a reason for the change.';
export const NOTE_REQUIRED = 'Describe the reason in a few words.';
export const NOTE_MAX = 500;

/** The reason fields of a status change; spread into its z.object and refined by `reasonChecks`. */
export const reasonFields = {
  reason: z.enum(leadReasonKeys, {
    error: (iss) =>
      iss.input === undefined || iss.input === ''
        ? REASON_REQUIRED
        : 'This is not one of the listed reasons.',
  }),
  note: optionalNote(NOTE_MAX),
};

/**
 * The checks a status change with a reason shares: the reason belongs to the status it sets
 * (otherwise a 400 naming the ones that do), and "Other", which says nothing by itself, has its
 * note.
 */
export function reasonChecks(
  v: { status: LeadStatus; reason: LeadReason; note?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (!isLeadReasonOf(v.status, v.reason)) {
    ctx.addIssue({
      code: 'custom',
      path: ['reason'],
      message: reasonNotAllowed({
        action: leadActions[v.status],
        allowed: leadReasons[v.status],
        reason: v.reason,
        labels: leadReasonLabels,
      }),
    });
  } else if (v.reason === 'other' && !v.note) {
    ctx.addIssue({ code: 'custom', path: ['note'], message: NOTE_REQUIRED });
  }
}

/** The sentence kept as the lead's status reason: the choice, then the note. */
export function reasonSentence(reason: LeadReason, note?: string | null): string {
  if (reason === 'other') return note ?? '';
  return note ? `${leadReasonLabels[reason]}: ${note}` : leadReasonLabels[reason];
}

/** PATCH /admin/leads/:id: a new status, and why (one of that status's reasons). */
export const UpdateLeadStatus = z
  .object({ status: LeadStatus, ...reasonFields })
  .superRefine(reasonChecks);
export type UpdateLeadStatus = z.infer<typeof UpdateLeadStatus>;

// ---------------------------------------------------------------------------
// Filter of the admin leads list (shared by the list, its totals and the bulk action)
// ---------------------------------------------------------------------------

/** The leads list's filters without sort and paging. */
export const leadFilterFields = {
  /** A call id, or a caller's or tracking number's digits in any format (see AdminLead). */
  q: searchParam,
  status: LeadStatus.optional(),
  publisher_id: uuidParam('publisher').optional(),
  offer_id: uuidParam('offer').optional(),
  /** The caller's state (`NY`); `none`: calls without a state (reports drill in with it). */
  state: optionalText(40, 'The state can be at most 40 characters.'),
  /** The vertical of the lead's offer. */
  vertical: optionalText(200, 'The vertical can be at most 200 characters.'),
  ...dateRangeQuery,
};
export const LeadFilter = fromNotAfterTo(z.object(leadFilterFields));
export type LeadFilter = z.infer<typeof LeadFilter>;

/**
 * GET /admin/leads/totals: how many leads match the list's filter and their money by status
 * (issue 27 item 1): the payout of the approved ones (earned) apart from that of the pending
 * ones (under review, paid only once approved); rejected leads are counted and never in a money
 * figure. From the maintained totals when they answer the filter; otherwise counted up to the
 * list's cap (`count_exact: false` beyond it), and the money summed only when the count is exact.
 */
export const LeadTotals = z.object({
  count: z.number().int(),
  count_exact: z.boolean(),
  /** Payout of the matching approved leads. Null when not summed (narrow the filter). */
  earned: Money.nullable(),
  /** Payout of the matching pending leads, should they be approved. Null when not summed. */
  under_review: Money.nullable(),
  /** How many matching leads are rejected (they pay nothing). Null when not counted. */
  rejected: z.number().int().nullable(),
});
export type LeadTotals = z.infer<typeof LeadTotals>;

// ---------------------------------------------------------------------------
// Bulk status
// ---------------------------------------------------------------------------

/** The most leads one bulk action changes; above it the admin narrows the filter. */
export const MAX_BULK_LEADS = 100_000;
/** The most leads picked one by one. */
export const MAX_BULK_IDS = 1_000;

/** POST /admin/leads/bulk-status: approve or reject picked leads, or all matching a filter. */
export const BulkLeadStatus = z
  .object({
    status: z.enum(['approved', 'rejected'], { error: 'A bulk action approves or rejects.' }),
    ...reasonFields,
    /** The picked leads… */
    ids: z
      .array(z.uuid({ error: 'This is not a valid lead id.' }))
      .min(1, { error: 'Select at least one lead.' })
      .max(MAX_BULK_IDS, { error: `Select at most ${MAX_BULK_IDS} leads, or use the filter.` })
      .optional(),
    /** …or every lead matching the list's filter. */
    filter: LeadFilter.optional(),
    /** Only count what would change (the confirmation's numbers); nothing is written. */
    dry_run: z.boolean().default(false),
  })
  .superRefine(reasonChecks)
  .refine((v) => (v.ids === undefined) !== (v.filter === undefined), {
    message: 'Send either the selected ids or a filter.',
    path: ['ids'],
  });
export type BulkLeadStatus = z.input<typeof BulkLeadStatus>;

export const BulkLeadStatusResult = z.object({
  /** Leads whose status changes (or would, in a dry run); those that have it already stay. */
  changed: z.number().int(),
  dry_run: z.boolean(),
});
export type BulkLeadStatusResult = z.infer<typeof BulkLeadStatusResult>;

// ---------------------------------------------------------------------------
// CSV import
// ---------------------------------------------------------------------------

/** Largest CSV file accepted. */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
/** Most data rows of one file. */
export const IMPORT_MAX_ROWS = 500_000;
/** Row errors kept and shown (the count covers all). */
export const IMPORT_MAX_ERRORS = 200;

/** The lead fields a CSV column can fill, in the order the mapping screen lists them. */
export const importFields = [
  'external_call_id',
  'publisher',
  'offer',
  'timestamp',
  'duration_seconds',
  'payout',
  'revenue',
  'status',
  'caller',
  'tracking_number',
  'state',
  'zip',
  'recording_url',
] as const;
export type ImportField = (typeof importFields)[number];
export const requiredImportFields: readonly ImportField[] = [
  'external_call_id',
  'publisher',
  'offer',
  'timestamp',
];

/** What each field is, for the mapping screen and the error sentences. */
export const importFieldLabels: Record<ImportField, string> = {
  external_call_id: 'External call id',
  publisher: 'Publisher (our id, e-mail, name or external id)',
  offer: 'Offer (our id, title or external id)',
  timestamp: 'Date and time',
  duration_seconds: 'Duration (seconds)',
  payout: 'Payout',
  revenue: 'Revenue',
  status: 'Status',
  caller: 'Caller number',
  tracking_number: 'Tracking number',
  state: 'Caller state',
  zip: 'Caller ZIP',
  recording_url: 'Recording URL',
};

/** Header names that map to a field without asking (compared lower-case, without spaces/_/-). */
export const importFieldAliases: Record<ImportField, string[]> = {
  external_call_id: ['externalcallid', 'callid', 'inboundcallid', 'id'],
  publisher: ['publisher', 'publisherid', 'publisheremail', 'affiliate', 'affiliateid'],
  offer: ['offer', 'offerid', 'campaign', 'campaignid'],
  timestamp: ['timestamp', 'date', 'datetime', 'calldate', 'calltime', 'time', 'createdat'],
  duration_seconds: ['durationseconds', 'duration', 'callduration', 'seconds', 'calllength'],
  payout: ['payout', 'publisherpayout'],
  revenue: ['revenue', 'conversionamount'],
  status: ['status', 'leadstatus'],
  caller: ['caller', 'callerid', 'callernumber', 'inboundnumber', 'from'],
  tracking_number: ['trackingnumber', 'number', 'dialednumber', 'to'],
  state: ['state', 'callerstate', 'region'],
  zip: ['zip', 'zipcode', 'postalcode', 'callerzip'],
  recording_url: ['recordingurl', 'recording'],
};

/**
 * A header as it is compared with the aliases: lower-case, without a unit in parentheses or
 * brackets ("Duration (s)", "Payout [USD]") and without spaces, _, - and dots.
 */
const headerKey = (h: string) =>
  h
    .toLowerCase()
    .replace(/\([^)]*\)|\[[^\]]*\]/g, '')
    .replace(/[\s_\-.]/g, '');

/** The mapping a file's header suggests: each field to the first header named like it. */
export function suggestMapping(header: readonly string[]): Partial<Record<ImportField, string>> {
  const out: Partial<Record<ImportField, string>> = {};
  const taken = new Set<string>();
  for (const field of importFields) {
    const hit = header.find(
      (h) => !taken.has(h) && importFieldAliases[field].includes(headerKey(h)),
    );
    if (hit) {
      out[field] = hit;
      taken.add(hit);
    }
  }
  return out;
}

/** Each field's column (a header of the file); unmapped fields are left out. */
export const ImportMapping = z.partialRecord(
  z.enum(importFields),
  z.string().min(1).max(200).nullable(),
);
export type ImportMapping = z.infer<typeof ImportMapping>;

/** POST /admin/lead-imports/:id/check: the mapping (and integration) to check the file with. */
export const CheckLeadImport = z.object({
  mapping: ImportMapping,
  /**
   * The integration the calls belong to: external ids (call, publisher, offer) are read as
   * this tracker's, so later postbacks update the imported leads. Default: "CSV import".
   */
  integration_id: z.uuid({ error: 'This is not a valid integration id.' }).optional(),
});
export type CheckLeadImport = z.infer<typeof CheckLeadImport>;

export const importStatuses = [
  'uploaded',
  'checking',
  'checked',
  'importing',
  'imported',
  'failed',
] as const;
export type ImportStatus = (typeof importStatuses)[number];

export const ImportRowError = z.object({
  /** Line of the file (the header is line 1). */
  line: z.number().int(),
  column: z.string().nullable(),
  message: z.string(),
});
export type ImportRowError = z.infer<typeof ImportRowError>;

/** A CSV import: its file, the check (dry run) and the import, polled while they run. */
export const LeadImport = z.object({
  id: z.string(),
  filename: z.string(),
  size_bytes: z.number().int(),
  header: z.array(z.string()),
  /** The first rows as read, for the mapping screen. */
  sample: z.array(z.array(z.string())),
  row_count: z.number().int(),
  suggested_mapping: ImportMapping,
  mapping: ImportMapping.nullable(),
  integration_id: z.string().nullable(),
  integration_name: z.string().nullable(),
  status: z.enum(importStatuses),
  /** Rows read so far by the running check or import. */
  processed_rows: z.number().int(),
  would_create: z.number().int().nullable(),
  would_update: z.number().int().nullable(),
  unchanged: z.number().int().nullable(),
  error_rows: z.number().int().nullable(),
  errors: z.array(ImportRowError),
  created: z.number().int().nullable(),
  updated: z.number().int().nullable(),
  /** Why the check or import failed, in a sentence. */
  message: z.string().nullable(),
  created_at: IsoDateTime,
  finished_at: IsoDateTime.nullable(),
});
export type LeadImport = z.infer<typeof LeadImport>;
