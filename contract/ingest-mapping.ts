import { z } from 'zod';
import { nonBlankText } from './admin-common.ts';

/**
 * How an integration reads a call tracker's postback into our call fields (issue 26): the
 * per-field rules, the trackers we ship presets for, the signature schemes and the names of
 * the integration settings. The engine that applies them is server/modules/ingest/mapping.ts;
 * the presets (each vendor's documented names) are contract/tracker-presets.ts.
 */

/** The fields a postback carries, in the order the admin screen lists them. */
export const callFields = [
  'call_id',
  'event',
  'publisher',
  'offer',
  /** The tracker's buyer or target id (issue 31): attributes the call to a buyer campaign. */
  'buyer',
  'caller',
  'tracking_number',
  'duration',
  'revenue',
  'payout',
  'recording_url',
  'state',
  'zip',
  'timestamp',
] as const;
export type CallField = (typeof callFields)[number];

/** The parameter that carries the key in a pixel URL (the header is `x-api-key`). */
export const KEY_PARAM = 'key';
export const KEY_HEADER = 'x-api-key';

export const trackers = [
  'ringba',
  'retreaver',
  'trackdrive',
  'invoca',
  'callrail',
  'twilio',
  'generic',
] as const;
export const Tracker = z.enum(trackers, {
  error: `tracker must be one of ${trackers.join(', ')}.`,
});
export type Tracker = (typeof trackers)[number];

/**
 * How a tracker writes a token it could not fill: the value arrives as the token itself
 * (`[tag:Geo:ZipCode]`, `{{zip}}`, `%zip%`, `{zip}`) and counts as not sent.
 */
export const tokenSyntaxes = ['brackets', 'double_braces', 'percent', 'braces'] as const;
export type TokenSyntax = (typeof tokenSyntaxes)[number];
const tokenPatterns: Record<TokenSyntax, RegExp> = {
  brackets: /^\[[^[\]]+\]$/,
  double_braces: /^\{\{[^{}]+\}\}$/,
  percent: /^%[A-Za-z0-9_.:-]+%$/,
  braces: /^\{[^{}]+\}$/,
};
/** True when `v` is an unreplaced token in one of `syntaxes`. */
export function isUnreplacedToken(v: string, syntaxes: readonly TokenSyntax[]): boolean {
  return syntaxes.some((s) => tokenPatterns[s].test(v));
}

/**
 * Value formats a field may be read in. Duration: `seconds` (default; also reads `m:ss` and
 * `h:mm:ss`), `minutes` (decimal), `milliseconds`, `clock`. Timestamp: `auto` (default: ISO
 * with or without an offset, `YYYY-MM-DD HH:MM:SS ±hhmm`, RFC 2822, Unix seconds or ms; a time
 * without an offset is read in the integration's time zone), `unix_s`, `unix_ms`. Money:
 * `dollars` (default; `$`, commas and spaces allowed) or `cents` (an integer of cents).
 */
export const fieldFormats = [
  'seconds',
  'minutes',
  'milliseconds',
  'clock',
  'auto',
  'unix_s',
  'unix_ms',
  'dollars',
  'cents',
] as const;
export type FieldFormat = (typeof fieldFormats)[number];
export const formatsOf: Partial<Record<CallField, readonly FieldFormat[]>> = {
  duration: ['seconds', 'minutes', 'milliseconds', 'clock'],
  timestamp: ['auto', 'unix_s', 'unix_ms'],
  revenue: ['dollars', 'cents'],
  payout: ['dollars', 'cents'],
};

/**
 * Call events in the order a call lives them. A lead keeps the highest rank it has seen: a
 * repeated or late event (incoming after completed) never moves it back. `error` (also written
 * `not_connected`) ranks just above `incoming`: a call that never connected (unanswered, busy,
 * failed, canceled), which a later `connected` overrides. Ranks are stored on leads: append
 * only.
 */
export const callEvents = [
  'incoming',
  'error',
  'connected',
  'completed',
  'converted',
  'payout',
] as const;
export type CallEvent = (typeof callEvents)[number];

/**
 * What the event field may be mapped to: our call events, plus `not_connected` (the call never
 * connected: unanswered, busy, failed, canceled, a pre-transfer ping). A not-connected call is
 * recorded as rejected and never paid, with the tracker's own word as the reason
 * ("Not connected: no-answer"); a later connected event of the same call still counts.
 */
const [incoming, ...afterIncoming] = callEvents;
export const eventTargets = [incoming, 'not_connected', ...afterIncoming] as const;
export type EventTarget = (typeof eventTargets)[number];

/** A parameter name or a dotted path into a JSON body (`call.uuid`, `data.0.id`). */
const paramPath = nonBlankText(100, {
  required: 'A parameter name must be text.',
  blank: 'A parameter name cannot be blank.',
  tooLong: 'A parameter name can be at most 100 characters.',
}).refine((s) => s !== KEY_PARAM, { error: `"${KEY_PARAM}" is reserved for the key.` });

const shortText = (what: string, max: number) =>
  z
    .string({ error: `${what} must be text.` })
    .max(max, { error: `${what} can be at most ${max} characters.` });

/**
 * One field's rule. Read in this order: `const` if set; else the first of `names` present (a
 * tracker's unreplaced token counts as absent); `split` takes one part of a packed value; a
 * value still missing takes `default`; `map` turns the tracker's word into ours (case and
 * spaces ignored; `*` maps any other value); then `format` reads it.
 */
export const FieldRule = z
  .object({
    names: z.array(paramPath).max(10, { error: 'At most 10 names per field.' }).optional(),
    const: shortText('A constant', 500).optional(),
    default: shortText('A default', 500).optional(),
    map: z
      .record(shortText('A mapped value', 100), shortText('A mapped value', 100))
      .refine((m) => Object.keys(m).length <= 100, { error: 'At most 100 mapped values.' })
      .optional(),
    format: z
      .enum(fieldFormats, { error: `format must be one of ${fieldFormats.join(', ')}.` })
      .optional(),
    split: z
      .object({
        delimiter: z
          .string()
          .min(1, { error: 'The delimiter cannot be blank.' })
          .max(5, { error: 'The delimiter can be at most 5 characters.' }),
        index: z
          .number({ error: 'The part must be a number.' })
          .int()
          .min(0, { error: 'The part is counted from 0.' })
          .max(9, { error: 'The part can be at most 9.' }),
      })
      .strict()
      .optional(),
  })
  .strict();
export type FieldRule = z.infer<typeof FieldRule>;

/** A field's rule as the API takes it: a parameter name alone stands for `{names: [name]}`. */
export const FieldRuleInput = z.union([
  paramPath.transform((name): FieldRule => ({ names: [name] })),
  FieldRule,
]);

/** Our field → its rule; a field left out is read by the preset's rule (or its own name). */
export const Mapping = z
  .partialRecord(z.enum(callFields), FieldRuleInput.nullable())
  .superRefine((m, ctx) => {
    for (const [field, rule] of Object.entries(m)) {
      if (!rule) continue;
      const allowed = formatsOf[field as CallField];
      if (rule.format && !allowed?.includes(rule.format)) {
        ctx.addIssue({
          code: 'custom',
          path: [field, 'format'],
          message: allowed
            ? `${field} can be read as ${allowed.join(', ')}.`
            : `${field} takes no format.`,
        });
      }
      if (field === 'event' && rule.map) {
        for (const [from, to] of Object.entries(rule.map)) {
          if (!(eventTargets as readonly string[]).includes(to)) {
            ctx.addIssue({
              code: 'custom',
              path: [field, 'map', from],
              message: `event values map to one of ${eventTargets.join(', ')} ("${to}" is not one).`,
            });
          }
        }
      }
    }
  });
export type MappingInput = z.input<typeof Mapping>;
export type Mapping = Partial<Record<CallField, FieldRule>>;

/** Reads a stored field map: old rows hold a parameter name per field. */
export function storedMapping(raw: unknown): Mapping {
  const out: Mapping = {};
  if (!raw || typeof raw !== 'object') return out;
  for (const [field, rule] of Object.entries(raw as Record<string, unknown>)) {
    if (!(callFields as readonly string[]).includes(field)) continue;
    if (typeof rule === 'string') out[field as CallField] = { names: [rule] };
    else if (rule && typeof rule === 'object') out[field as CallField] = rule as FieldRule;
  }
  return out;
}

// ---------------------------------------------------------------------------
// Signatures
// ---------------------------------------------------------------------------

/**
 * `callrail`: HMAC-SHA1 of the raw body with the account's signing key, base64, in the
 * `Signature` header. `twilio`: X-Twilio-Signature, HMAC-SHA1 (base64) of the URL the tracker
 * called followed by the POST parameters sorted by name, each name and value appended, with
 * the auth token. `basic`: HTTP Basic auth, secret `user:password`. `hmac-sha256`: HMAC-SHA256
 * of the raw body in a named header, hex or base64, with or without a `sha256=` prefix.
 */
export const signatureSchemes = ['callrail', 'twilio', 'basic', 'hmac-sha256'] as const;
export type SignatureScheme = (typeof signatureSchemes)[number];

const headerName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9-]{1,100}$/, { error: 'A header name is letters, digits and dashes.' })
  .transform((s) => s.toLowerCase());

export const SignatureInput = z
  .object({
    scheme: z.enum(signatureSchemes, {
      error: `signature.scheme must be one of ${signatureSchemes.join(', ')}.`,
    }),
    secret: z
      .string({ error: 'signature.secret is required.' })
      .min(8, { error: 'The signing secret must be at least 8 characters.' })
      .max(500, { error: 'The signing secret can be at most 500 characters.' }),
    header: headerName.optional(),
  })
  .strict()
  .refine((s) => s.scheme !== 'basic' || s.secret.includes(':'), {
    path: ['secret'],
    error: 'Basic auth takes the secret as user:password.',
  });
export type SignatureInput = z.infer<typeof SignatureInput>;

/** The header each scheme reads by default. */
export const defaultSignatureHeader: Record<SignatureScheme, string> = {
  callrail: 'signature',
  twilio: 'x-twilio-signature',
  basic: 'authorization',
  'hmac-sha256': 'x-signature',
};

/** What the admin sees of a signature: never the secret. */
export const SignatureView = z.object({
  scheme: z.enum(signatureSchemes),
  header: z.string(),
  /** The secret's last 4 characters, so two secrets can be told apart. */
  secret_hint: z.string(),
});
export type SignatureView = z.infer<typeof SignatureView>;

/**
 * Parameter names that carry a secret (the key, a token, a per-call key…): redacted in tags,
 * in the refusal log and in logs. An integration may name more.
 */
export const SECRET_NAME = /key|token|secret|signature|password|passwd|auth|credential/i;
export const REDACTED = '[redacted]';
