import { z } from 'zod';
import { CsvImportResult, nonBlankText } from './admin-common.ts';
import { IsoDateTime, pageOf, pageQuery } from './list.ts';

/**
 * Fraud (issue 32, items 3–5): the callers admins block, the rules that flag calls as they
 * arrive (thresholds in Settings), the flags' review queue and each publisher's score.
 * The server side is server/modules/fraud.
 */

// ---------------------------------------------------------------------------
// Blocked callers
// ---------------------------------------------------------------------------

export const REASON_MAX = 500;
const reasonText = nonBlankText(REASON_MAX, {
  required: 'Say why (a reason is required).',
  tooLong: `Keep the reason under ${REASON_MAX} characters.`,
});

export const blockKinds = ['number', 'prefix'] as const;
export type BlockKind = (typeof blockKinds)[number];

/**
 * One number (any format, read in the network's phone country and kept in E.164) or one
 * prefix (`+1900`, `1900`: the leading digits of an E.164 number, country code first).
 */
export const CreateBlockedCaller = z
  .object({
    number: z.string().trim().min(1).max(40).optional(),
    prefix: z.string().trim().min(1).max(20).optional(),
    reason: reasonText,
    expires_at: z.iso
      .datetime({ offset: true, error: 'expires_at must be an ISO date and time.' })
      .nullable()
      .optional(),
  })
  .refine((b) => (b.number === undefined) !== (b.prefix === undefined), {
    error: 'Give either a number or a prefix (one of them).',
  });
export type CreateBlockedCaller = z.infer<typeof CreateBlockedCaller>;

export const BlockedCaller = z.object({
  id: z.uuid(),
  kind: z.enum(blockKinds),
  /** E.164 number, or the prefix with its `+`. */
  value: z.string(),
  reason: z.string(),
  expires_at: IsoDateTime.nullable(),
  /** False once expires_at has passed (kept for the record, no longer applied). */
  active: z.boolean(),
  created_by_email: z.string().nullable(),
  created_at: IsoDateTime,
});
export type BlockedCaller = z.infer<typeof BlockedCaller>;

export const BlockedCallerListQuery = z.object({
  ...pageQuery(),
  q: z.string().trim().max(40).optional(),
});
export type BlockedCallerListQuery = z.infer<typeof BlockedCallerListQuery>;
export const BlockedCallerList = pageOf(BlockedCaller);
export type BlockedCallerList = z.infer<typeof BlockedCallerList>;

/** A CSV import's answer: rows written, or every wrong line (then nothing is written). */
export const BlockedCallerImport = CsvImportResult;
export type BlockedCallerImport = CsvImportResult;

// ---------------------------------------------------------------------------
// Rules (Settings)
// ---------------------------------------------------------------------------

export const fraudRuleNames = [
  'repeat_caller',
  'publisher_velocity',
  'short_calls',
  'caller_anomaly',
  'publisher_rejects',
] as const;
export const FraudRuleName = z.enum(fraudRuleNames, {
  error: `Rule must be one of ${fraudRuleNames.join(', ')}.`,
});
export type FraudRuleName = z.infer<typeof FraudRuleName>;

export const fraudActions = ['flag', 'hold'] as const;
export const FraudAction = z.enum(fraudActions, { error: 'Action must be flag or hold.' });
export type FraudAction = z.infer<typeof FraudAction>;

const count = (what: string, max: number) =>
  z.coerce
    .number({ error: `${what} must be a number.` })
    .int({ error: `${what} must be a whole number.` })
    .min(1, { error: `${what} must be at least 1.` })
    .max(max, { error: `${what} must be at most ${max}.` });
const percent = (what: string) =>
  z.coerce
    .number({ error: `${what} must be a number.` })
    .min(1, { error: `${what} must be at least 1 %.` })
    .max(100, { error: `${what} must be at most 100 %.` });

/** Each rule's thresholds (what the Settings form shows). */
export const FraudRuleParams = z.object({
  /** repeat_caller: more than `max_calls` calls of one number in `hours` hours, any offer. */
  max_calls: count('Calls', 10_000),
  hours: count('Hours', 24 * 30),
  /** publisher_velocity: this hour's calls above `multiplier` × the usual (same weekday and
   * hour over the last `weeks` weeks), and at least `min_calls`. */
  multiplier: z.coerce.number().min(1, { error: 'The multiplier must be at least 1.' }).max(100),
  weeks: count('Weeks', 12),
  min_calls: count('The minimum of calls', 100_000),
  /** short_calls: a call within `seconds_above_buffer` seconds over its offer's buffer. */
  seconds_above_buffer: count('Seconds', 600),
  /** short_calls / publisher_rejects: the publisher's share over `hours`, at least min_calls. */
  share_percent: percent('The share'),
});
export type FraudRuleParams = z.infer<typeof FraudRuleParams>;

export const FraudRule = z.object({
  rule: FraudRuleName,
  enabled: z.boolean(),
  action: FraudAction,
  params: FraudRuleParams.partial(),
});
export type FraudRule = z.infer<typeof FraudRule>;

export const FraudRules = z.object({ rules: z.array(FraudRule) });
export type FraudRules = z.infer<typeof FraudRules>;

/** PUT one rule: any of enabled, action and thresholds. */
export const UpdateFraudRule = z.object({
  enabled: z.boolean().optional(),
  action: FraudAction.optional(),
  params: FraudRuleParams.partial().optional(),
});
export type UpdateFraudRule = z.infer<typeof UpdateFraudRule>;
export const FraudRuleParamsPath = z.object({ rule: FraudRuleName });

/** The defaults: every rule on, flag only. */
export const defaultFraudRules: Record<FraudRuleName, Omit<FraudRule, 'rule'>> = {
  repeat_caller: { enabled: true, action: 'flag', params: { max_calls: 3, hours: 24 } },
  publisher_velocity: {
    enabled: true,
    action: 'flag',
    params: { multiplier: 3, weeks: 4, min_calls: 20 },
  },
  short_calls: {
    enabled: true,
    action: 'flag',
    params: { seconds_above_buffer: 5, share_percent: 30, min_calls: 10, hours: 24 },
  },
  caller_anomaly: { enabled: true, action: 'flag', params: {} },
  publisher_rejects: {
    enabled: true,
    action: 'flag',
    params: { share_percent: 40, min_calls: 20, hours: 24 },
  },
};

// ---------------------------------------------------------------------------
// Flags
// ---------------------------------------------------------------------------

export const fraudFlagStatuses = ['open', 'confirmed', 'cleared'] as const;
export const FraudFlagStatus = z.enum(fraudFlagStatuses, {
  error: 'Status must be open, confirmed or cleared.',
});

export const FraudFlag = z.object({
  id: z.uuid(),
  lead_id: z.uuid(),
  publisher_id: z.uuid(),
  publisher_name: z.string(),
  rule: FraudRuleName,
  action: FraudAction,
  status: FraudFlagStatus,
  /** Why, in a sentence with its figures. */
  reason: z.string(),
  /** The figures behind the sentence (calls, threshold, share…). */
  figures: z.record(z.string(), z.union([z.number(), z.string(), z.null()])),
  caller: z.string().nullable(),
  lead_status: z.string(),
  created_at: IsoDateTime,
  resolved_at: IsoDateTime.nullable(),
  resolution_note: z.string().nullable(),
});
export type FraudFlag = z.infer<typeof FraudFlag>;

export const FraudFlagListQuery = z.object({
  ...pageQuery(),
  status: FraudFlagStatus.default('open'),
  rule: FraudRuleName.optional(),
  publisher_id: z.uuid({ error: 'This is not a valid publisher id.' }).optional(),
});
export type FraudFlagListQuery = z.infer<typeof FraudFlagListQuery>;
export const FraudFlagList = pageOf(FraudFlag);
export type FraudFlagList = z.infer<typeof FraudFlagList>;

const flagIds = z
  .array(z.uuid({ error: 'This is not a valid flag id.' }))
  .min(1, { error: 'Pick at least one flag.' })
  .max(500, { error: 'Pick at most 500 flags at once.' });

/** Confirm: the flagged calls are rejected with the reason. */
export const ConfirmFraudFlags = z.object({ ids: flagIds, reason: reasonText });
export type ConfirmFraudFlags = z.infer<typeof ConfirmFraudFlags>;
/** Clear: the flags close; a held call goes back to what its offer's rules said. */
export const ClearFraudFlags = z.object({
  ids: flagIds,
  note: z.string().trim().max(REASON_MAX).optional(),
});
export type ClearFraudFlags = z.infer<typeof ClearFraudFlags>;
export const FraudFlagsChanged = z.object({ changed: z.number().int() });
export type FraudFlagsChanged = z.infer<typeof FraudFlagsChanged>;

/** A lead's flags and whether its caller is blocked (the lead detail's Fraud card). */
export const LeadFraud = z.object({
  flags: z.array(FraudFlag),
  caller: z.string().nullable(),
  blocked: BlockedCaller.nullable(),
});
export type LeadFraud = z.infer<typeof LeadFraud>;

/** A publisher's score: the share of their calls flagged, over 7 and 30 days. */
export const PublisherFraudWindow = z.object({
  days: z.number().int(),
  calls: z.number().int(),
  flagged_calls: z.number().int(),
  confirmed: z.number().int(),
  open: z.number().int(),
  /** 0–100: flagged calls per 100 calls (confirmed flags count twice), capped at 100. */
  score: z.number(),
});
export const PublisherFraudScore = z.object({
  publisher_id: z.uuid(),
  windows: z.array(PublisherFraudWindow),
});
export type PublisherFraudScore = z.infer<typeof PublisherFraudScore>;
