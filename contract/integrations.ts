import { z } from 'zod';
import { IsoDateTime, pageOf, pageQuery, sortQuery } from './list.ts';
import { LeadStatus } from './roles.ts';

/**
 * Call-tracker integrations (issue 13): the admin API under /api/v1/admin/integrations and the
 * postback fields of /api/v1/ingest/calls, read here so the server, the web and the README
 * speak the same names.
 */

// ---------------------------------------------------------------------------
// Postback fields
// ---------------------------------------------------------------------------

/** The fields a postback carries, in the order the admin screen lists them. */
export const callFields = [
  'call_id',
  'event',
  'publisher',
  'offer',
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

/** Default parameter name of each field; an integration may rename any of them. */
export const defaultFieldMap: Record<CallField, string> = Object.fromEntries(
  callFields.map((f) => [f, f]),
) as Record<CallField, string>;

/** The parameter that carries the key in a pixel URL (the header is `x-api-key`). */
export const KEY_PARAM = 'key';
export const KEY_HEADER = 'x-api-key';

/**
 * Call events in the order a call lives them. A lead keeps the highest rank it has seen: a
 * repeated or late event (incoming after completed) never moves it back. `error` ranks just
 * above `incoming`: a call that failed before connecting, which a later `connected` overrides.
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
export const eventRank = (e: CallEvent): number => callEvents.indexOf(e) + 1;

/** The event a postback without one is taken as: a tracker firing one pixel at call end. */
export const DEFAULT_EVENT: CallEvent = 'completed';

/**
 * The first event that makes a call billable: from `completed` on (completed, converted,
 * payout) the offer's rules judge the call once (server/db/lead-ingest.ts).
 */
export const BILLABLE_EVENT: CallEvent = 'completed';

/**
 * The status an event gives a lead the rules have not judged yet, and why: `pending` while the
 * call runs, `rejected` when the tracker reports a failed call. Billable events are judged by
 * the offer's rules instead.
 */
export function statusForEvent(e: CallEvent): { status: LeadStatus; reason: string | null } {
  if (e === 'error') return { status: 'rejected', reason: 'The tracker reported a failed call.' };
  return { status: 'pending', reason: null };
}

/** Free parameters kept as tags: at most this many, each value at most 500 characters. */
export const MAX_TAGS = 50;
const MAX_TAG_VALUE = 500;
/** A postback may be dated this far ahead (clock skew between tracker and us). */
const FUTURE_SLACK_MS = 5 * 60 * 1000;
/** Longest call we accept: 24 hours. */
const MAX_DURATION_S = 24 * 3600;
const MAX_MONEY = 9_999_999_999.99;

/** A postback read into our fields: what the upsert needs. */
export type CallInput = {
  callId: string;
  event: CallEvent;
  /** Our id or the tracker's; resolved by the server. */
  publisher: string;
  offer: string;
  caller: string | null;
  trackingNumber: string | null;
  durationSeconds: number | null;
  /** Money as numeric(12,2) strings. */
  revenue: string | null;
  payout: string | null;
  recordingUrl: string | null;
  state: string | null;
  zip: string | null;
  timestamp: Date | null;
  tags: Record<string, string>;
};

/** A field the tracker sent wrong: the parameter's name (as the tracker calls it) and why. */
export type CallFieldError = { field: string; message: string };

const scalar = (v: unknown): string | undefined => {
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return scalar(v[v.length - 1]);
  if (typeof v === 'object') return undefined;
  const s = String(v).trim();
  // Trackers substitute an unknown token with an empty string: that is "not sent".
  return s === '' ? undefined : s;
};

const money = (s: string): string | null => {
  const v = s.replace(/^\$/, '');
  if (!/^\d{1,10}(\.\d+)?$/.test(v)) return null;
  const n = Math.round(Number(v) * 100) / 100;
  return n <= MAX_MONEY ? n.toFixed(2) : null;
};

const phone = /^\+?[0-9 ().-]{3,40}$/;

/** `2026-11-25T10:00:00Z`, or Unix seconds / milliseconds (what trackers often send). */
function parseTimestamp(s: string): Date | null {
  if (/^\d{9,13}$/.test(s)) {
    const n = Number(s);
    return new Date(s.length >= 12 ? n : n * 1000);
  }
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(s)) return null;
  const d = new Date(s.replace(' ', 'T'));
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * Reads a postback's parameters (query and body merged) by the integration's parameter names.
 * Parameters that name no field (and are not the key) become tags. The first wrong field is
 * answered, named as the tracker sent it.
 */
export function readCallParams(
  params: Record<string, unknown>,
  fieldMap: Partial<Record<CallField, string>>,
  now = new Date(),
): { ok: true; call: CallInput } | ({ ok: false } & CallFieldError) {
  const names = { ...defaultFieldMap, ...fieldMap };
  const fail = (f: CallField, message: string) => ({
    ok: false as const,
    field: names[f],
    message: `${names[f]}: ${message}`,
  });
  const get = (f: CallField) => scalar(params[names[f]]);
  const text = (f: CallField, max: number): string | null | CallFieldError => {
    const v = get(f);
    if (v === undefined) return null;
    return v.length > max ? fail(f, `at most ${max} characters.`) : v;
  };
  const isError = (v: unknown): v is CallFieldError =>
    typeof v === 'object' && v !== null && 'message' in v;

  const callId = get('call_id');
  if (!callId) return fail('call_id', 'the call id is required.');
  if (callId.length > 200) return fail('call_id', 'at most 200 characters.');
  const rawEvent = get('event')?.toLowerCase() ?? DEFAULT_EVENT;
  if (!(callEvents as readonly string[]).includes(rawEvent)) {
    return fail('event', `must be one of ${callEvents.join(', ')}.`);
  }
  const publisher = get('publisher');
  if (!publisher) return fail('publisher', 'the publisher is required (our id or yours).');
  if (publisher.length > 200) return fail('publisher', 'at most 200 characters.');
  const offer = get('offer');
  if (!offer) return fail('offer', 'the offer or campaign is required (our id or yours).');
  if (offer.length > 200) return fail('offer', 'at most 200 characters.');

  const phones: Record<'caller' | 'tracking_number', string | null> = {
    caller: null,
    tracking_number: null,
  };
  for (const f of ['caller', 'tracking_number'] as const) {
    const v = get(f);
    if (v !== undefined && !phone.test(v)) return fail(f, 'not a phone number.');
    phones[f] = v ?? null;
  }

  let durationSeconds: number | null = null;
  const d = get('duration');
  if (d !== undefined) {
    if (!/^\d+(\.\d+)?$/.test(d)) return fail('duration', 'a number of seconds, 0 or more.');
    durationSeconds = Math.round(Number(d));
    if (durationSeconds > MAX_DURATION_S) return fail('duration', 'longer than 24 hours.');
  }

  const amounts: Record<'revenue' | 'payout', string | null> = { revenue: null, payout: null };
  for (const f of ['revenue', 'payout'] as const) {
    const v = get(f);
    if (v === undefined) continue;
    const m = money(v);
    if (m === null) return fail(f, 'an amount like 12.50, 0 or more.');
    amounts[f] = m;
  }

  const recordingUrl = get('recording_url') ?? null;
  if (recordingUrl !== null) {
    if (recordingUrl.length > 2000) return fail('recording_url', 'at most 2000 characters.');
    if (!/^https?:\/\/[^\s]+$/i.test(recordingUrl)) {
      return fail('recording_url', 'an http or https link.');
    }
  }
  const state = text('state', 50);
  if (isError(state)) return { ok: false, ...state };
  const zip = text('zip', 20);
  if (isError(zip)) return { ok: false, ...zip };

  let timestamp: Date | null = null;
  const ts = get('timestamp');
  if (ts !== undefined) {
    timestamp = parseTimestamp(ts);
    if (!timestamp || timestamp.getUTCFullYear() < 2000) {
      return fail('timestamp', 'an ISO date-time (2026-11-25T10:00:00Z) or Unix seconds.');
    }
    if (timestamp.getTime() > now.getTime() + FUTURE_SLACK_MS) {
      return fail('timestamp', 'lies in the future.');
    }
  }

  const mapped = new Set<string>([...Object.values(names), KEY_PARAM]);
  const tags: Record<string, string> = {};
  for (const [k, raw] of Object.entries(params)) {
    if (mapped.has(k)) continue;
    const v = scalar(raw) ?? (raw && typeof raw === 'object' ? JSON.stringify(raw) : undefined);
    if (v === undefined) continue;
    if (Object.keys(tags).length >= MAX_TAGS) {
      return { ok: false, field: k, message: `${k}: at most ${MAX_TAGS} free parameters.` };
    }
    if (k.length > 100 || v.length > MAX_TAG_VALUE) {
      return { ok: false, field: k, message: `${k}: at most ${MAX_TAG_VALUE} characters.` };
    }
    tags[k] = v;
  }

  return {
    ok: true,
    call: {
      callId,
      event: rawEvent as CallEvent,
      publisher,
      offer,
      caller: phones.caller,
      trackingNumber: phones.tracking_number,
      durationSeconds,
      revenue: amounts.revenue,
      payout: amounts.payout,
      recordingUrl,
      state: state === null ? null : state.length === 2 ? state.toUpperCase() : state,
      zip,
      timestamp,
      tags,
    },
  };
}

/** What the endpoint answers for an accepted call. */
export const IngestAnswer = z.object({ id: z.string(), status: LeadStatus });
export type IngestAnswer = z.infer<typeof IngestAnswer>;

// ---------------------------------------------------------------------------
// Admin: integrations
// ---------------------------------------------------------------------------

/** Minutes a duration in seconds shows as in lists (`N min`): a started minute counts. */
export const minutesOf = (seconds: number): number => Math.ceil(seconds / 60);

const ipv4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const ipv6 = /^[0-9a-f:]*:[0-9a-f:.]*$/i;

/** True for an IPv4/IPv6 address or CIDR range (`203.0.113.0/24`, `2001:db8::/32`). */
export function isIpOrCidr(s: string): boolean {
  const [addr, bits, extra] = s.split('/');
  if (extra !== undefined || !addr) return false;
  const v4 = ipv4.test(addr);
  const v6 = !v4 && ipv6.test(addr) && addr.split(':').length <= 8;
  if (!v4 && !v6) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (v4 ? 32 : 128);
}

export const AllowedIps = z
  .array(
    z
      .string()
      .trim()
      .refine(isIpOrCidr, {
        error: (i) =>
          `${String(i.input)} is not an IP address or CIDR range (e.g. 203.0.113.0/24).`,
      }),
  )
  .max(100, { error: 'At most 100 addresses or ranges.' });

const paramName = z
  .string()
  .trim()
  .min(1, { error: 'A parameter name cannot be blank.' })
  .max(100, { error: 'A parameter name can be at most 100 characters.' })
  .refine((s) => s !== KEY_PARAM, { error: `"${KEY_PARAM}" is reserved for the key.` });

/** Our field → the tracker's parameter name, for the fields that differ from the default. */
export const FieldMap = z
  .partialRecord(z.enum(callFields), paramName)
  .refine((m) => new Set(Object.values({ ...defaultFieldMap, ...m })).size === callFields.length, {
    error: 'Two fields cannot use the same parameter name.',
  });
export type FieldMap = z.infer<typeof FieldMap>;

const integrationName = z
  .string({ error: 'Name is required.' })
  .trim()
  .min(1, { error: 'Name is required.' })
  .max(120, { error: 'Name can be at most 120 characters.' });

/** POST /admin/integrations. */
export const CreateIntegration = z.object({
  name: integrationName,
  allowed_ips: AllowedIps.default([]),
  field_map: FieldMap.default({}),
});
export type CreateIntegration = z.input<typeof CreateIntegration>;

/** PATCH /admin/integrations/:id. */
export const UpdateIntegration = z
  .object({ name: integrationName, allowed_ips: AllowedIps, field_map: FieldMap })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { error: 'Nothing to change.' });
export type UpdateIntegration = z.input<typeof UpdateIntegration>;

export const AdminIntegration = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters, e.g. `ik_3f9a2c`; the key itself is never shown again. */
  key_prefix: z.string(),
  allowed_ips: z.array(z.string()),
  /** Every field with the parameter name this integration reads it from. */
  field_map: z.record(z.string(), z.string()),
  revoked_at: IsoDateTime.nullable(),
  /** Up to a few seconds behind (usage is flushed in batches). */
  last_used_at: IsoDateTime.nullable(),
  accepted_count: z.number().int(),
  refused_count: z.number().int(),
  created_at: IsoDateTime,
});
export type AdminIntegration = z.infer<typeof AdminIntegration>;

/** The answer of POST /admin/integrations: the only time the key is shown. */
export const CreatedIntegration = z.object({ integration: AdminIntegration, key: z.string() });
export type CreatedIntegration = z.infer<typeof CreatedIntegration>;

export const IntegrationListQuery = z.object({
  ...pageQuery(),
  ...sortQuery(['created_at', 'name', 'last_used_at'] as const, 'created_at'),
});
export type IntegrationListQuery = z.infer<typeof IntegrationListQuery>;
export const IntegrationList = pageOf(AdminIntegration);
export type IntegrationList = z.infer<typeof IntegrationList>;

// --- external ids ---

export const externalIdKinds = ['publisher', 'offer'] as const;
export const ExternalIdKind = z.enum(externalIdKinds, {
  error: 'kind must be publisher or offer.',
});

/** PUT /admin/integrations/:id/external-ids: attach (or re-attach) a tracker id. */
export const AttachExternalId = z.object({
  kind: ExternalIdKind,
  external_id: z
    .string({ error: 'External id is required.' })
    .trim()
    .min(1, { error: 'External id is required.' })
    .max(200, { error: 'External id can be at most 200 characters.' }),
  target_id: z.uuid({ error: 'Please select a publisher or offer.' }),
});
export type AttachExternalId = z.input<typeof AttachExternalId>;

export const ExternalIdMapping = z.object({
  id: z.string(),
  kind: ExternalIdKind,
  external_id: z.string(),
  target_id: z.string(),
  /** The publisher's name (or e-mail) or the offer's title. */
  target_label: z.string(),
  created_at: IsoDateTime,
});
export type ExternalIdMapping = z.infer<typeof ExternalIdMapping>;

export const ExternalIdListQuery = z.object({
  ...pageQuery(),
  kind: ExternalIdKind.optional(),
});
export type ExternalIdListQuery = z.infer<typeof ExternalIdListQuery>;
export const ExternalIdList = pageOf(ExternalIdMapping);
export type ExternalIdList = z.infer<typeof ExternalIdList>;

export const ExternalIdParams = z.object({
  id: z.uuid({ error: 'This is not a valid id.' }),
  mappingId: z.uuid({ error: 'This is not a valid id.' }),
});

// --- refused calls ---

/** How long refused postbacks are kept for the admin to see and replay. */
export const REFUSAL_RETENTION_DAYS = 14;

export const RefusalListQuery = z.object({
  ...pageQuery(),
  integration_id: z.uuid({ error: 'This is not a valid integration id.' }).optional(),
});
export type RefusalListQuery = z.infer<typeof RefusalListQuery>;

export const IngestRefusal = z.object({
  id: z.string(),
  integration_id: z.string().nullable(),
  integration_name: z.string().nullable(),
  http_status: z.number().int(),
  code: z.string(),
  reason: z.string(),
  method: z.string(),
  query: z.record(z.string(), z.unknown()),
  body: z.unknown(),
  headers: z.record(z.string(), z.string()),
  ip: z.string().nullable(),
  created_at: IsoDateTime,
  replayed_at: IsoDateTime.nullable(),
  lead_id: z.string().nullable(),
});
export type IngestRefusal = z.infer<typeof IngestRefusal>;
export const RefusalList = pageOf(IngestRefusal);
export type RefusalList = z.infer<typeof RefusalList>;
