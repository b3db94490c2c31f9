import { z } from 'zod';
import { publisherPick, publisherRef } from './admin-common.ts';
import { Money, moneyInput } from './list.ts';
import { TimeZoneName } from './settings.ts';

/**
 * The rules of an offer that decide whether an ingested call pays (issue 13, item 4): set on the
 * admin offer form, shown to publishers on the offer, applied by the ingestion function
 * (`ingest_call` in drizzle/, called from server/modules/ingest/lead-ingest.ts).
 */

/** US state (and DC, territory) codes a caller's state is checked against. */
export const usStates = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
  PR: 'Puerto Rico',
  VI: 'U.S. Virgin Islands',
  GU: 'Guam',
} as const;
export type UsState = keyof typeof usStates;
export const usStateCodes = Object.keys(usStates) as UsState[];

/**
 * What the rules said of a call, kept on its lead (`leads.rule_outcome`) with a sentence
 * (`leads.status_reason`): payable, or the first rule that refused it.
 */
export const ruleOutcomes = [
  'payable',
  'short',
  'state',
  'closed',
  'duplicate',
  'over_cap',
  /** The caller is on the blocklist (issue 32): recorded, never payable. */
  'blocked',
] as const;
export type RuleOutcome = (typeof ruleOutcomes)[number];

/** ISO weekdays, 1 = Monday … 7 = Sunday, with their short names. */
export const weekdayNames = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** The longest buffer (24 h, the longest call we accept), duplicate window and cap we take. */
const MAX_BUFFER_S = 24 * 3600;
const MAX_DUPLICATE_DAYS = 365;
const MAX_CAP = 10_000_000;

const wholeNumber = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a whole number.` })
    .int({ error: `${label} must be a whole number.` })
    .min(min, { error: `${label} must be at least ${min} (leave it empty for none).` })
    .max(max, { error: `${label} can be at most ${max.toLocaleString('en-US')}.` });

/** `09:00`, `17:30`, `00:00` (an end of `00:00` is midnight). */
const clock = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: `${label} must be a time like 09:00.` });

/**
 * Open hours: calls on one of `days` from `from` to `to` in `time_zone` pay. An end not after
 * the start runs across midnight and belongs to the day it opens on (Fri 20:00–02:00 covers
 * Saturday 01:00); the same start and end means the whole day.
 */
export const OpenHours = z.object({
  time_zone: TimeZoneName,
  days: z
    .array(
      z
        .number({ error: 'A day is a number from 1 (Monday) to 7 (Sunday).' })
        .int({ error: 'A day is a number from 1 (Monday) to 7 (Sunday).' })
        .min(1, { error: 'A day is a number from 1 (Monday) to 7 (Sunday).' })
        .max(7, { error: 'A day is a number from 1 (Monday) to 7 (Sunday).' }),
    )
    .min(1, { error: 'Choose at least one open day.' })
    .transform((d) => [...new Set(d)].sort((a, b) => a - b)),
  from: clock('Opening time'),
  to: clock('Closing time'),
});
export type OpenHours = z.output<typeof OpenHours>;

/** Mon–Fri 09:00–17:00: the open hours the offer form proposes when they are switched on. */
export const officeHours: Omit<OpenHours, 'time_zone'> = {
  days: [1, 2, 3, 4, 5],
  from: '09:00',
  to: '17:00',
};

/** The rules as the admin sends them; an empty (null) rule does not apply. */
export const OfferRulesInput = z.object({
  /** Calls shorter than this many seconds are not payable. */
  buffer_seconds: wholeNumber('Billable duration', 1, MAX_BUFFER_S).nullable().default(null),
  /** A call from a caller with a payable call to this offer within this many days is a duplicate. */
  duplicate_days: wholeNumber('Duplicate window', 1, MAX_DUPLICATE_DAYS).nullable().default(null),
  /** Payable calls per day / month of the network's time zone, for the whole offer. */
  daily_cap: wholeNumber('Daily cap', 1, MAX_CAP).nullable().default(null),
  monthly_cap: wholeNumber('Monthly cap', 1, MAX_CAP).nullable().default(null),
  /** The same, counted for each publisher on its own. */
  publisher_daily_cap: wholeNumber('Daily cap per publisher', 1, MAX_CAP).nullable().default(null),
  publisher_monthly_cap: wholeNumber('Monthly cap per publisher', 1, MAX_CAP)
    .nullable()
    .default(null),
  /** Callers from these states pay; empty means any state. */
  allowed_states: z
    .array(
      z
        .string()
        .trim()
        .toUpperCase()
        .refine((s) => s in usStates, {
          error: (i) => `${String(i.input)} is not a US state code (e.g. CA, NY, TX).`,
        }),
    )
    .default([])
    .transform((s) => [...new Set(s)].sort()),
  open_hours: OpenHours.nullable().default(null),
});
export type OfferRulesInput = z.input<typeof OfferRulesInput>;

/** The rules as the API answers them. */
export const OfferRules = z.object({
  buffer_seconds: z.number().int().nullable(),
  duplicate_days: z.number().int().nullable(),
  daily_cap: z.number().int().nullable(),
  monthly_cap: z.number().int().nullable(),
  publisher_daily_cap: z.number().int().nullable(),
  publisher_monthly_cap: z.number().int().nullable(),
  allowed_states: z.array(z.string()),
  open_hours: z
    .object({
      time_zone: z.string(),
      days: z.array(z.number().int()),
      from: z.string(),
      to: z.string(),
    })
    .nullable(),
});
export type OfferRules = z.infer<typeof OfferRules>;

/** An offer without rules: every completed call pays. */
export const noOfferRules: OfferRules = {
  buffer_seconds: null,
  duplicate_days: null,
  daily_cap: null,
  monthly_cap: null,
  publisher_daily_cap: null,
  publisher_monthly_cap: null,
  allowed_states: [],
  open_hours: null,
};

/** One publisher's payout on one offer, set by the admin; ingested calls pay it. */
export const PayoutOverrideInput = z.object({
  ...publisherPick,
  payout: moneyInput('Payout'),
});
export type PayoutOverrideInput = z.input<typeof PayoutOverrideInput>;

/** The whole list of overrides of an offer (the form sends it whole; it replaces the old one). */
export const PayoutOverridesInput = z
  .array(PayoutOverrideInput)
  .max(1000, { error: 'At most 1000 publisher payouts per offer.' })
  .refine((l) => new Set(l.map((o) => o.publisher_id)).size === l.length, {
    error: 'A publisher can have only one payout on an offer.',
  });

export const PayoutOverride = z.object({
  ...publisherRef,
  payout: Money,
});
export type PayoutOverride = z.infer<typeof PayoutOverride>;

// ---------------------------------------------------------------------------
// Reading the rules
// ---------------------------------------------------------------------------

const n = (v: number) => v.toLocaleString('en-US');

/** `90 s`, `2 min`, `2 min 30 s`. */
export function formatSeconds(s: number): string {
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  const rest = s % 60;
  return rest ? `${m} min ${rest} s` : `${m} min`;
}

/** `Mon–Fri`, `Mon, Wed, Fri`, `Mon–Wed, Sat`, `Every day`. */
export function formatDays(days: readonly number[]): string {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  if (sorted.length === 7) return 'Every day';
  const runs: number[][] = [];
  for (const d of sorted) {
    const last = runs[runs.length - 1];
    if (last && d === last[last.length - 1]! + 1) last.push(d);
    else runs.push([d]);
  }
  return runs
    .map((r) => {
      const first = weekdayNames[r[0]! - 1];
      const end = weekdayNames[r[r.length - 1]! - 1];
      if (r.length === 1) return first;
      if (r.length === 2) return `${first}, ${end}`;
      return `${first}–${end}`;
    })
    .join(', ');
}

/** `Mon–Fri 09:00–17:00 (America/New_York)`; across midnight says so. */
export function formatOpenHours(h: NonNullable<OfferRules['open_hours']>): string {
  const window =
    h.from === h.to
      ? 'all day'
      : `${h.from}–${h.to}${h.to <= h.from && h.to !== '00:00' ? ' (next day)' : ''}`;
  return `${formatDays(h.days)} ${window} (${h.time_zone})`;
}

/**
 * The rules as short lines a publisher reads on the offer card, e.g. "Pays calls of 90 s or
 * more", "Caps: 200 a day, 5,000 a month". Empty when the offer has no rules.
 */
export function describeRules(r: OfferRules): { label: string; text: string }[] {
  const lines: { label: string; text: string }[] = [];
  if (r.buffer_seconds !== null) {
    lines.push({
      label: 'Billable after',
      text: `${formatSeconds(r.buffer_seconds)} (shorter calls do not pay)`,
    });
  }
  if (r.duplicate_days !== null) {
    lines.push({
      label: 'Duplicates',
      text: `a repeat caller within ${r.duplicate_days} ${r.duplicate_days === 1 ? 'day' : 'days'} does not pay`,
    });
  }
  const caps = (day: number | null, month: number | null) =>
    [day !== null ? `${n(day)} a day` : null, month !== null ? `${n(month)} a month` : null]
      .filter(Boolean)
      .join(', ');
  const offerCaps = caps(r.daily_cap, r.monthly_cap);
  if (offerCaps) lines.push({ label: 'Offer caps', text: offerCaps });
  const pubCaps = caps(r.publisher_daily_cap, r.publisher_monthly_cap);
  if (pubCaps) lines.push({ label: 'Your caps', text: pubCaps });
  if (r.allowed_states.length > 0) {
    lines.push({ label: 'States', text: r.allowed_states.join(', ') });
  }
  if (r.open_hours) lines.push({ label: 'Open hours', text: formatOpenHours(r.open_hours) });
  return lines;
}
