import {
  type CallField,
  callFields,
  type FieldRule,
  isUnreplacedToken,
  KEY_PARAM,
  type Mapping,
  REDACTED,
  SECRET_NAME,
  storedMapping,
  type TokenSyntax,
  type Tracker,
} from '../../../contract/ingest-mapping.ts';
import {
  type CallEvent,
  type CallInput,
  callEvents,
  type FieldTrace,
} from '../../../contract/integrations.ts';
import { presetOf } from '../../../contract/tracker-presets.ts';
import { parseDuration, parseMoney, parseTimestamp } from './formats.ts';
import { toE164 } from './phone.ts';
import { stateCode } from './us-states.ts';

/**
 * The mapping engine (issue 26): a tracker's postback, as it sends it, into our call fields,
 * by the integration's rules (contract/ingest-mapping.ts FieldRule) merged over its tracker's
 * preset. Pure: no database. The endpoint, the replay of refused calls and the test console
 * all read through `readCall`, so what the console shows is what the endpoint does.
 */

/** What an integration reads a postback by. */
export type ReadConfig = {
  tracker: Tracker;
  /** Every field's effective rule (preset merged with the integration's own). */
  mapping: Mapping;
  tokens: readonly TokenSyntax[];
  /** Zone of timestamps without an offset; null = UTC. */
  timeZone: string | null;
  callIdFields: readonly CallField[];
  secretParams: readonly string[];
  /** The network's phone country (Settings). */
  phoneCountry: string;
};

export type ReadResult =
  | { ok: true; call: CallInput; trace: FieldTrace[] }
  | { ok: false; field: string; message: string; trace: FieldTrace[] };

/** Free parameters kept as tags: at most this many, each value cut at 500 characters. */
export const MAX_TAGS = 50;
const MAX_TAG_VALUE = 500;
/** A postback may be dated this far ahead (clock skew between tracker and us). */
const FUTURE_SLACK_MS = 5 * 60 * 1000;
/** Longest call we accept: 24 hours. */
const MAX_DURATION_S = 24 * 3600;

/** The rules an integration reads by: its own over its tracker's preset, field by field. */
export function effectiveMapping(tracker: Tracker, stored: unknown): Mapping {
  const preset = presetOf(tracker).mapping;
  const own = storedMapping(stored);
  const out: Mapping = {};
  for (const f of callFields) {
    const rule = own[f] ?? preset[f];
    out[f] = rule ?? { names: [f] };
  }
  return out;
}

/** True for a parameter whose value is a secret (redacted wherever it is kept or shown). */
export function isSecretName(name: string, extra: readonly string[] = []): boolean {
  const last = name.split('.').pop() ?? name;
  return (
    name === KEY_PARAM ||
    SECRET_NAME.test(last) ||
    extra.some(
      (e) => e.toLowerCase() === name.toLowerCase() || e.toLowerCase() === last.toLowerCase(),
    )
  );
}

/** A copy of a query, body or header object with secret values replaced (nested too). */
export function redact(value: unknown, extra: readonly string[] = [], depth = 0): unknown {
  if (depth > 40 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, extra, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = isSecretName(k, extra) ? REDACTED : redact(v, extra, depth + 1);
  }
  return out;
}

const scalar = (v: unknown): string | undefined => {
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return scalar(v[v.length - 1]);
  if (typeof v === 'object') return undefined;
  const s = String(v).trim();
  // Trackers substitute an unknown token with an empty string: that is "not sent".
  return s === '' ? undefined : s;
};

/** A parameter by its name, or by a dotted path into nested JSON (`call.uuid`, `calls.0.id`). */
function lookup(params: Record<string, unknown>, path: string): unknown {
  if (Object.hasOwn(params, path)) return params[path];
  if (!path.includes('.')) {
    // Form fields and headers are matched without regard to case by many trackers' docs.
    const lower = path.toLowerCase();
    for (const k of Object.keys(params)) if (k.toLowerCase() === lower) return params[k];
    return undefined;
  }
  let cur: unknown = params;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

const normKey = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

type Raw = {
  /** The value after const/names/split/default/map. */
  value: string | undefined;
  /** The value before the map (the tracker's own word). */
  sent: string | undefined;
  source: string | null;
  notes: string[];
  /** The parameter names read (excluded from tags). */
  used: string[];
};

function readRaw(
  params: Record<string, unknown>,
  field: CallField,
  rule: FieldRule,
  cfg: ReadConfig,
): Raw {
  const notes: string[] = [];
  const used: string[] = [];
  let value: string | undefined;
  let source: string | null = null;
  if (rule.const !== undefined && rule.const !== '') {
    value = rule.const;
    source = 'constant';
  } else {
    for (const name of rule.names ?? [field]) {
      used.push(name);
      const v = scalar(lookup(params, name));
      if (v === undefined) continue;
      if (isUnreplacedToken(v, cfg.tokens)) {
        notes.push(`${name} held the unreplaced token ${v}: not sent`);
        continue;
      }
      value = v;
      source = name;
      break;
    }
    if (value !== undefined && rule.split) {
      const parts = value.split(rule.split.delimiter);
      const part = parts[rule.split.index]?.trim();
      notes.push(`part ${rule.split.index} of "${value}" split by "${rule.split.delimiter}"`);
      value = part === '' ? undefined : part;
      if (value !== undefined && isUnreplacedToken(value, cfg.tokens)) {
        notes.push(`unreplaced token ${value}: not sent`);
        value = undefined;
      }
    }
  }
  if (value === undefined && rule.default !== undefined && rule.default !== '') {
    value = rule.default;
    source = 'default';
  }
  const sent = value;
  if (value !== undefined && rule.map) {
    const map = new Map(Object.entries(rule.map).map(([k, v]) => [normKey(k), v]));
    const hit = map.get(normKey(value)) ?? map.get('*');
    if (hit !== undefined) {
      if (hit !== value) notes.push(`mapped ${value} → ${hit}`);
      value = hit;
    }
  }
  return { value, sent, source, notes, used };
}

const zipShape =
  /^(\d{5}(-\d{4})?|[A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d|[A-Za-z0-9][A-Za-z0-9 -]{1,9})$/;

/** The event named by a value (ours, or not_connected), or undefined. */
function eventOf(v: string): { event: CallEvent; notConnected: boolean } | undefined {
  const k = v.trim().toLowerCase();
  if (k === 'not_connected' || k === 'not connected') return { event: 'error', notConnected: true };
  if ((callEvents as readonly string[]).includes(k)) {
    return { event: k as CallEvent, notConnected: k === 'error' };
  }
  return undefined;
}

/**
 * Reads a postback's parameters (query and body merged; a JSON body may nest) by the
 * integration's rules. Money-relevant fields that cannot be read refuse the call (400, named as
 * the tracker sent it, kept for replay); details that cannot be read (a caller "anonymous", a
 * ZIP "n/a") are left empty and their raw value kept as a tag, so the call itself is not lost.
 */
export function readCall(
  params: Record<string, unknown>,
  cfg: ReadConfig,
  now = new Date(),
): ReadResult {
  const trace: FieldTrace[] = [];
  const tags: Record<string, string> = {};
  const usedNames = new Set<string>([KEY_PARAM]);
  const raws = {} as Record<CallField, Raw>;
  for (const f of callFields) {
    const rule = cfg.mapping[f] ?? { names: [f] };
    raws[f] = readRaw(params, f, rule, cfg);
    for (const n of raws[f].used) usedNames.add(n);
  }
  const secret = (name: string | null) => name !== null && isSecretName(name, cfg.secretParams);
  const show = (f: CallField, value: string | null, extra?: string) => {
    const r = raws[f];
    const hidden = secret(r.source);
    const notes = extra ? [...r.notes, extra] : r.notes;
    trace.push({
      field: f,
      source: r.source,
      raw: r.sent === undefined ? null : hidden ? REDACTED : r.sent,
      value: hidden && value !== null ? REDACTED : value,
      note: notes.length ? notes.join('; ') : null,
    });
  };
  const nameOf = (f: CallField) => raws[f].source ?? cfg.mapping[f]?.names?.[0] ?? f;
  const fail = (f: CallField, message: string): ReadResult => {
    const name = nameOf(f);
    return { ok: false, field: name, message: `${name}: ${message}`, trace };
  };
  /** The field's value as sent; a field not sent is shown empty and answers undefined. */
  const sentValue = (f: CallField) => {
    const v = raws[f].value;
    if (v === undefined) show(f, null);
    return v;
  };
  const keepRaw = (f: CallField, why: string) => {
    const v = raws[f].sent;
    if (v !== undefined && !secret(raws[f].source)) tags[`${f}_raw`] = v.slice(0, MAX_TAG_VALUE);
    return why;
  };

  // Phone numbers first: the call id may be made of them.
  const phones = { caller: null as string | null, tracking_number: null as string | null };
  for (const f of ['caller', 'tracking_number'] as const) {
    const v = sentValue(f);
    if (v === undefined) continue;
    const e164 = toE164(v, cfg.phoneCountry);
    phones[f] = e164;
    if (e164 === null) show(f, null, keepRaw(f, `not a phone number: kept as the tag ${f}_raw`));
    else if (e164 !== v) show(f, e164, keepRaw(f, `normalised to E.164; sent as the tag ${f}_raw`));
    else show(f, e164);
  }

  let durationSeconds: number | null = null;
  {
    const v = sentValue('duration');
    if (v !== undefined) {
      durationSeconds = parseDuration(v, cfg.mapping.duration?.format);
      const unit = cfg.mapping.duration?.format ?? 'seconds';
      if (durationSeconds === null) {
        show('duration', null);
        return fail('duration', `"${v}" is not a duration in ${unit} (or m:ss, h:mm:ss).`);
      }
      if (durationSeconds > MAX_DURATION_S) {
        show('duration', null);
        return fail('duration', 'longer than 24 hours.');
      }
      show('duration', `${durationSeconds} s`);
    }
  }

  let timestamp: Date | null = null;
  {
    const v = sentValue('timestamp');
    if (v !== undefined) {
      timestamp = parseTimestamp(v, cfg.mapping.timestamp?.format, cfg.timeZone);
      if (!timestamp || timestamp.getUTCFullYear() < 2000) {
        show('timestamp', null);
        return fail(
          'timestamp',
          `"${v}" is not a date-time we can read (ISO 8601, "2023-12-11 11:49:32 -0500", RFC 2822 or Unix seconds/ms).`,
        );
      }
      if (timestamp.getTime() > now.getTime() + FUTURE_SLACK_MS) {
        show('timestamp', timestamp.toISOString());
        return fail('timestamp', 'lies in the future.');
      }
      show(
        'timestamp',
        timestamp.toISOString(),
        /Z|[+-]\d{2}:?\d{2}$|GMT|UTC/i.test(v) || /^\d+(\.\d+)?$/.test(v)
          ? undefined
          : `no offset: read in ${cfg.timeZone ?? 'UTC'}`,
      );
    }
  }

  const amounts = { revenue: null as string | null, payout: null as string | null };
  for (const f of ['revenue', 'payout'] as const) {
    const v = sentValue(f);
    if (v === undefined) continue;
    const m = parseMoney(v, cfg.mapping[f]?.format);
    if (m === null) {
      show(f, null);
      return fail(
        f,
        cfg.mapping[f]?.format === 'cents'
          ? `"${v}" is not a whole number of cents.`
          : `"${v}" is not an amount like 12.50, 0 or more.`,
      );
    }
    amounts[f] = m;
    show(f, m);
  }

  // The event: the tracker's word through the map; none at all is judged by what the call
  // carries (the integration may set a default instead).
  let event: CallEvent;
  let eventNote: string | null = null;
  {
    const r = raws.event;
    if (r.value === undefined) {
      if (durationSeconds !== null && durationSeconds > 0) {
        event = 'completed';
        show(
          'event',
          'completed',
          `no event sent: a ${durationSeconds} s call is taken as completed`,
        );
      } else if (durationSeconds === 0) {
        event = 'error';
        eventNote = 'no event, 0 s call';
        show('event', 'not_connected', 'no event sent: a 0 s call never connected');
      } else {
        event = 'incoming';
        eventNote = 'No event and no duration sent: waiting for the call’s outcome.';
        show('event', 'incoming', 'no event and no duration sent: the call stays pending');
      }
    } else {
      const hit = eventOf(r.value);
      if (!hit) {
        show('event', null);
        return fail(
          'event',
          `"${r.sent}" is not an event we know: map it on the integration to one of incoming, not_connected, connected, completed, converted, payout.`,
        );
      }
      event = hit.event;
      if (hit.notConnected) eventNote = r.sent && normKey(r.sent) !== 'error' ? r.sent : null;
      if (event === 'completed' && durationSeconds === 0) {
        // A call that "completed" after 0 s of talk never reached anyone: never payable.
        event = 'error';
        eventNote = `${r.sent ?? 'completed'} after 0 s`;
        show('event', 'not_connected', 'completed with a 0 s duration: never connected');
      } else show('event', hit.notConnected ? 'not_connected' : hit.event);
    }
  }

  const publisher = raws.publisher.value ?? null;
  const offer = raws.offer.value ?? null;
  const buyer = raws.buyer.value ?? null;
  for (const [f, v] of [
    ['publisher', publisher],
    ['offer', offer],
    ['buyer', buyer],
  ] as const) {
    if (v !== null && v.length > 200) {
      show(f, null);
      return fail(f, 'at most 200 characters.');
    }
    show(f, v);
  }
  // The buyer travels as the `buyer` tag: the leads_campaign_bill trigger (drizzle/0037) reads
  // it there to attribute the call to a campaign.
  if (buyer !== null) tags.buyer = buyer;

  let recordingUrl: string | null = null;
  {
    const v = sentValue('recording_url');
    if (v !== undefined && v.length <= 2000 && /^https?:\/\/\S+$/i.test(v)) {
      recordingUrl = v;
      show('recording_url', v);
    } else if (v !== undefined) {
      show('recording_url', null, keepRaw('recording_url', 'not an http(s) link: kept as a tag'));
    }
  }

  let state: string | null = null;
  {
    const v = sentValue('state');
    if (v !== undefined) {
      state = stateCode(v);
      if (state === null)
        show('state', null, keepRaw('state', 'not a state we know: kept as a tag'));
      else show('state', state);
    }
  }

  let zip: string | null = null;
  {
    let v = sentValue('zip');
    // A ZIP sent as a JSON number lost its leading zeros (02134 → 2134).
    if (
      v !== undefined &&
      /^\d{3,4}$/.test(v) &&
      typeof lookup(params, raws.zip.source ?? '') === 'number'
    ) {
      v = v.padStart(5, '0');
    }
    if (v !== undefined && zipShape.test(v)) {
      zip = v;
      show('zip', v);
    } else if (v !== undefined) {
      show('zip', null, keepRaw('zip', 'not a postal code: kept as a tag'));
    }
  }

  // The call id: sent, or made of the fields that identify the call together.
  let callId = raws.call_id.value;
  if (callId === undefined && cfg.callIdFields.length > 0) {
    const parsed: Partial<Record<CallField, string | null>> = {
      caller: phones.caller,
      tracking_number: phones.tracking_number,
      timestamp: timestamp?.toISOString() ?? null,
      duration: durationSeconds === null ? null : String(durationSeconds),
      publisher,
      offer,
      state,
      zip,
    };
    const parts = cfg.callIdFields.map((f) => parsed[f] ?? raws[f].value ?? null);
    if (parts.every((p) => p !== null && p !== undefined)) {
      callId = parts.join('|');
      trace.unshift({
        field: 'call_id',
        source: 'call id fields',
        raw: null,
        value: callId,
        note: `made of ${cfg.callIdFields.join(' + ')}`,
      });
    } else {
      trace.unshift({ field: 'call_id', source: null, raw: null, value: null, note: null });
      return fail(
        'call_id',
        `the call id is required, or every field that identifies the call (${cfg.callIdFields.join(', ')}).`,
      );
    }
  } else {
    const r = raws.call_id;
    trace.unshift({
      field: 'call_id',
      source: r.source,
      raw: r.sent ?? null,
      value: callId ?? null,
      note: r.notes.length ? r.notes.join('; ') : null,
    });
    if (!callId) return fail('call_id', 'the call id is required.');
  }
  if (callId.length > 200) return fail('call_id', 'at most 200 characters.');

  // Everything else the tracker sent is kept as tags (nested objects by their dotted path),
  // secrets redacted; past MAX_TAGS or MAX_TAG_VALUE the rest is cut, never refused.
  const flat: [string, string][] = [];
  const walk = (prefix: string, v: unknown, depth: number) => {
    if (flat.length > MAX_TAGS * 2) return;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && depth < 4) {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        walk(prefix ? `${prefix}.${k}` : k, x, depth + 1);
      }
      return;
    }
    if (usedNames.has(prefix)) return;
    const s = scalar(v) ?? (v !== null && typeof v === 'object' ? JSON.stringify(v) : undefined);
    if (s === undefined || isUnreplacedToken(s, cfg.tokens)) return;
    flat.push([prefix, s]);
  };
  walk('', params, 0);
  for (const [k, v] of flat) {
    if (Object.keys(tags).length >= MAX_TAGS) break;
    if (k.length > 100) continue;
    tags[k] = isSecretName(k, cfg.secretParams) ? REDACTED : v.slice(0, MAX_TAG_VALUE);
  }

  return {
    ok: true,
    trace,
    call: {
      callId,
      event,
      eventNote,
      publisher,
      offer,
      caller: phones.caller,
      trackingNumber: phones.tracking_number,
      durationSeconds,
      revenue: amounts.revenue,
      payout: amounts.payout,
      recordingUrl,
      state,
      zip,
      timestamp,
      tags,
    },
  };
}
