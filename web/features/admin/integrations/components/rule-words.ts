import {
  type CallField,
  type FieldFormat,
  type FieldRule,
  formatsOf,
  type SignatureScheme,
} from '@contract/ingest-mapping.ts';
import type { SetupStep } from '@contract/tracker-presets.ts';

/** A format as an admin reads it in the rule and in the format picker. */
export const formatLabels: Record<FieldFormat, string> = {
  seconds: 'seconds',
  minutes: 'minutes',
  milliseconds: 'milliseconds',
  clock: 'm:ss or h:mm:ss',
  auto: 'any date format',
  unix_s: 'Unix seconds',
  unix_ms: 'Unix milliseconds',
  dollars: 'dollars',
  cents: 'cents',
};

/** An event target in words: `not_connected` → "not connected". */
export const targetLabel = (target: string): string => target.replaceAll('_', ' ');

/** What each event target does to a call, for the setup steps and the event value map. */
export const meaningLabels: Record<SetupStep['meaning'], string> = {
  any: 'Every change of the call: the status it sends says which event it is',
  incoming: 'A call started: recorded as pending, not paid yet',
  not_connected: 'The call never connected: recorded, never paid',
  error: 'The call failed: recorded, never paid',
  connected: 'The call connected: pending until it ends',
  completed: "The call ended: the offer's rules judge it",
  converted: "A conversion: the offer's rules judge it",
  payout: "The tracker's payout: the offer's rules judge it",
};

export const schemeLabels: Record<SignatureScheme, string> = {
  callrail: 'CallRail signature (HMAC-SHA1 of the body)',
  twilio: 'Twilio request signature (X-Twilio-Signature)',
  basic: 'HTTP Basic auth (user:password)',
  'hmac-sha256': 'HMAC-SHA256 of the body in a header',
};

/** The format a field is read in when its rule names none. */
export const defaultFormatOf = (field: CallField): FieldFormat | undefined => formatsOf[field]?.[0];

/** `no-answer/busy → not connected; completed → completed` (`*` reads "anything else"). */
export function describeMap(map: Record<string, string>): string {
  const byTarget = new Map<string, string[]>();
  for (const [from, to] of Object.entries(map)) {
    const list = byTarget.get(to) ?? [];
    list.push(from === '*' ? 'anything else' : from);
    byTarget.set(to, list);
  }
  return [...byTarget].map(([to, froms]) => `${froms.join('/')} → ${targetLabel(to)}`).join('; ');
}

/**
 * A field's rule in one line, in the order the engine reads it: "call_id ← CallSid",
 * "event ← CallStatus, no-answer/busy → not connected", "duration ← CallDuration (seconds)".
 */
export function describeRule(field: CallField, rule: FieldRule | undefined): string {
  const r = rule ?? {};
  let text: string;
  if (r.const !== undefined && r.const !== '') text = `${field} = "${r.const}" (constant)`;
  else if (r.names?.length) text = `${field} ← ${r.names.join(' or ')}`;
  else text = `${field}: not read`;
  if (r.split) {
    text += `, part ${r.split.index} of the value split at "${r.split.delimiter}"`;
  }
  if (r.default !== undefined && r.default !== '') text += `, else "${r.default}"`;
  if (r.map && Object.keys(r.map).length > 0) text += `, ${describeMap(r.map)}`;
  const format = r.format ?? defaultFormatOf(field);
  if (format && (r.names?.length || r.const || r.default)) text += ` (${formatLabels[format]})`;
  return text;
}

/** A rule without its empty parts (and without a format that is the field's default). */
export function normalRule(rule: FieldRule | null | undefined, field?: CallField): FieldRule {
  const r = rule ?? {};
  const out: FieldRule = {};
  if (r.names?.length) out.names = [...r.names];
  if (r.const !== undefined && r.const !== '') out.const = r.const;
  if (r.default !== undefined && r.default !== '') out.default = r.default;
  if (r.map && Object.keys(r.map).length > 0) out.map = { ...r.map };
  if (r.format && !(field && r.format === defaultFormatOf(field))) out.format = r.format;
  if (r.split) out.split = { delimiter: r.split.delimiter, index: r.split.index };
  return out;
}

/** A rule as text that two equal rules share (its value map in key order). */
function ruleKey(rule: FieldRule | null | undefined, field: CallField): string {
  const r = normalRule(rule, field);
  const map = r.map && Object.entries(r.map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([r.names, r.const, r.default, map, r.format, r.split]);
}

/** True when two rules of `field` read the same way (empty parts ignored). */
export const sameRule = (
  field: CallField,
  a: FieldRule | null | undefined,
  b: FieldRule | null | undefined,
) => ruleKey(a, field) === ruleKey(b, field);
