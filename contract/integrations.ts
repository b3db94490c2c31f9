import { z } from 'zod';
import {
  CsvImportResult,
  nonBlankText,
  offerPick,
  offerRef,
  publisherPick,
  requiredText,
} from './admin-common.ts';
import { IsoDateTime, listQuery, pageOf, pageQuery } from './list.ts';
import { LeadStatus } from './roles.ts';

/**
 * Call-tracker integrations (issue 13): the admin API under /api/v1/admin/integrations and the
 * postback fields of /api/v1/ingest/calls, read here so the server, the web and the operator's
 * guide (docs/guide/trackers.md) speak the same names.
 */

import {
  type CallEvent,
  type CallField,
  callEvents,
  callFields,
  FieldRule,
  KEY_HEADER,
  KEY_PARAM,
  Mapping,
  SignatureInput,
  SignatureView,
  Tracker,
} from './ingest-mapping.ts';
import { TimeZoneName } from './settings.ts';

export type { CallEvent, CallField };
export { callEvents, callFields, KEY_HEADER, KEY_PARAM };

// ---------------------------------------------------------------------------
// Postback fields
// ---------------------------------------------------------------------------

/** A lead keeps the highest rank it has seen (callEvents, contract/ingest-mapping.ts). */
export const eventRank = (e: CallEvent): number => callEvents.indexOf(e) + 1;

/**
 * The first event that makes a call billable: from `completed` on (completed, converted,
 * payout) the offer's rules judge the call once (server/modules/ingest/lead-ingest.ts).
 */
export const BILLABLE_EVENT: CallEvent = 'completed';

/**
 * The status an event gives a lead the rules have not judged yet, and why: `pending` while the
 * call runs, `rejected` when the call never connected (the tracker's own word in the reason).
 * Billable events are judged by the offer's rules instead.
 */
export function statusForEvent(
  e: CallEvent,
  note?: string | null,
): { status: LeadStatus; reason: string | null } {
  if (e === 'error') {
    return {
      status: 'rejected',
      reason: note ? `Not connected: ${note}` : 'The tracker reported a failed call.',
    };
  }
  return { status: 'pending', reason: note ?? null };
}

/** A postback read into our fields: what the upsert needs. */
export type CallInput = {
  callId: string;
  event: CallEvent;
  /** The tracker's own word for a not-connected outcome, or why an event was assumed. */
  eventNote: string | null;
  /** Our id or the tracker's; null when the tracker sent none (tracking number decides). */
  publisher: string | null;
  offer: string | null;
  /** E.164. */
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

const integrationName = requiredText('Name', 120);

/**
 * The tracker's account (a Ringba account id, a Twilio AccountSid…): integrations of one
 * tracker that name the same account share calls, so a call reported by a pixel and by a
 * webhook of that account is one lead, paid once.
 */
const accountId = nonBlankText(200, {
  required: 'Account id must be text.',
  blank: 'Account id cannot be blank (leave it out instead).',
  tooLong: 'Account id can be at most 200 characters.',
});

const integrationSettings = {
  allowed_ips: AllowedIps,
  /** Per field, its rule (or a parameter name); merged over the preset's. */
  field_map: Mapping,
  account_id: accountId.nullable(),
  /** The zone of timestamps sent without an offset (default UTC). */
  time_zone: TimeZoneName.nullable(),
  signature: SignatureInput.nullable(),
  /** When the tracker sends no call id: the fields that identify a call together. */
  call_id_fields: z
    .array(z.enum(callFields.filter((f) => f !== 'call_id') as [CallField, ...CallField[]]))
    .max(4, { error: 'At most 4 fields identify a call.' }),
  /** More parameters that carry a secret (redacted in tags and logs). */
  secret_params: z
    .array(z.string().trim().min(1).max(100))
    .max(20, { error: 'At most 20 secret parameters.' }),
};

/** POST /admin/integrations: the tracker's preset fills what is left out. */
export const CreateIntegration = z.object({
  name: integrationName,
  tracker: Tracker.default('generic'),
  allowed_ips: integrationSettings.allowed_ips.default([]),
  field_map: integrationSettings.field_map.default({}),
  account_id: integrationSettings.account_id.optional(),
  time_zone: integrationSettings.time_zone.optional(),
  signature: integrationSettings.signature.optional(),
  call_id_fields: integrationSettings.call_id_fields.optional(),
  secret_params: integrationSettings.secret_params.optional(),
});
export type CreateIntegration = z.input<typeof CreateIntegration>;

/** PATCH /admin/integrations/:id: a field_map entry set to null goes back to the preset's. */
export const UpdateIntegration = z
  .object({ name: integrationName, ...integrationSettings })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { error: 'Nothing to change.' });
export type UpdateIntegration = z.input<typeof UpdateIntegration>;

export const AdminIntegration = z.object({
  id: z.string(),
  name: z.string(),
  tracker: Tracker,
  account_id: z.string().nullable(),
  time_zone: z.string().nullable(),
  /** The key's first characters, e.g. `ik_3f9a2c`; the key itself is never shown again. */
  key_prefix: z.string(),
  allowed_ips: z.array(z.string()),
  /** Every field with the rule this integration reads it by. */
  field_map: z.record(z.string(), FieldRule),
  signature: SignatureView.nullable(),
  call_id_fields: z.array(z.string()),
  secret_params: z.array(z.string()),
  /** Other integrations whose calls this one shares (same tracker account). */
  shares_calls_with: z.array(z.object({ id: z.string(), name: z.string() })),
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

// --- test console ---

/** POST /admin/integrations/:id/test: a request as the tracker would send it. */
export const IntegrationTestRequest = z.object({
  method: z.enum(['GET', 'POST'], { error: 'method must be GET or POST.' }).default('POST'),
  /** A whole URL (its query is read) or a query string. */
  query: z.string().max(8000, { error: 'The URL can be at most 8,000 characters.' }).optional(),
  headers: z
    .record(z.string().max(100), z.string().max(2000))
    .refine((h) => Object.keys(h).length <= 50, { error: 'At most 50 headers.' })
    .optional(),
  body: z
    .string()
    .max(64 * 1024, { error: 'The body can be at most 64 KB.' })
    .optional(),
});
export type IntegrationTestRequest = z.input<typeof IntegrationTestRequest>;

/** How one of our fields was read from the request. */
export const FieldTrace = z.object({
  field: z.string(),
  /** The parameter or path it came from, `constant`, `default`, `call id fields`, or null. */
  source: z.string().nullable(),
  /** What the tracker sent (secrets redacted). */
  raw: z.string().nullable(),
  /** What we read it as. */
  value: z.string().nullable(),
  /** Why a value was dropped or changed ("unreplaced token", "mapped no-answer → not_connected"). */
  note: z.string().nullable(),
});
export type FieldTrace = z.infer<typeof FieldTrace>;

export const IntegrationTestResult = z.object({
  /** `create` a new lead, `update` a known call's lead, or `refused`. */
  outcome: z.enum(['create', 'update', 'refused']),
  http_status: z.number().int(),
  code: z.string().nullable(),
  message: z.string().nullable(),
  signature: z.enum(['valid', 'invalid', 'not_checked']),
  fields: z.array(FieldTrace),
  /** Parameters kept as tags (secrets redacted). */
  tags: z.record(z.string(), z.string()),
  /** The lead as it would be after this request (nothing is written). */
  lead: z
    .object({
      id: z.string().nullable(),
      call_id: z.string(),
      status: LeadStatus,
      reason: z.string().nullable(),
      publisher_id: z.string(),
      publisher_name: z.string(),
      ...offerRef,
      payout: z.string(),
      duration_seconds: z.number().int().nullable(),
      caller: z.string().nullable(),
      tracking_number: z.string().nullable(),
    })
    .nullable(),
});
export type IntegrationTestResult = z.infer<typeof IntegrationTestResult>;

export const IntegrationListQuery = listQuery(
  ['created_at', 'name', 'last_used_at'],
  'created_at',
  {},
);
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
  external_id: requiredText('External id', 200),
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

// ---------------------------------------------------------------------------
// Tracking numbers
// ---------------------------------------------------------------------------

/**
 * A tracking number assigned to a (publisher, offer) pair: a call to it belongs to them when
 * the tracker sends no publisher or offer (Twilio, CallRail). Kept in E.164; one pair per
 * number.
 */
export const CreateTrackingNumber = z.object({
  number: z
    .string({ error: 'Number is required.' })
    .trim()
    .min(3, { error: 'Number is required.' })
    .max(40, { error: 'A phone number can be at most 40 characters.' }),
  ...publisherPick,
  ...offerPick,
});
export type CreateTrackingNumber = z.input<typeof CreateTrackingNumber>;

export const TrackingNumber = z.object({
  id: z.string(),
  /** E.164, e.g. +18665551234. */
  number: z.string(),
  publisher_id: z.string(),
  publisher_name: z.string(),
  ...offerRef,
  created_at: IsoDateTime,
});
export type TrackingNumber = z.infer<typeof TrackingNumber>;

export const TrackingNumberListQuery = z.object({
  ...pageQuery(),
  /** Any format: matched by its digits. */
  q: z.string().trim().max(40).optional(),
  publisher_id: z.uuid({ error: 'This is not a valid publisher id.' }).optional(),
  offer_id: z.uuid({ error: 'This is not a valid offer id.' }).optional(),
});
export type TrackingNumberListQuery = z.infer<typeof TrackingNumberListQuery>;
export const TrackingNumberList = pageOf(TrackingNumber);
export type TrackingNumberList = z.infer<typeof TrackingNumberList>;

/**
 * The answer of POST /admin/tracking-numbers/import (CSV with the columns number, publisher
 * (id or e-mail), offer (id or exact title)): all rows or none.
 */
export const TrackingNumberImport = CsvImportResult;
export type TrackingNumberImport = CsvImportResult;
