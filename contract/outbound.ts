import { z } from 'zod';
import { IsoDateTime, Money, pageOf, pageQuery } from './list.ts';

/**
 * What the network tells other servers (issue 30): the operator's signed webhooks (Standard
 * Webhooks) and the publishers' postbacks, both sent by one delivery engine
 * (server/modules/outbound).
 */

// ---------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------

/** The event types a webhook endpoint may subscribe to. */
export const webhookEventTypes = [
  'lead.created',
  'lead.status_changed',
  'lead.disputed',
  'dispute.decided',
  'payout.created',
  'payout_run.confirmed',
  'publisher.signed_up',
  'publisher.status_changed',
  'application.submitted',
  'application.decided',
  'campaign.created',
  'fraud.flagged',
] as const;
export const WebhookEventType = z.enum(webhookEventTypes, {
  error: `Choose event types among ${webhookEventTypes.join(', ')}.`,
});
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/**
 * Events written to the outbox: the webhook types, and a lead's payout change (no webhook type
 * of its own: it feeds the publishers' `payout_changed` postback).
 */
export type OutboundEventType = WebhookEventType | 'lead.payout_changed';

/** What a lead event says (the `data` of lead.created and lead.status_changed). */
export const LeadEventData = z.object({
  lead_id: z.uuid(),
  publisher_id: z.uuid(),
  offer_id: z.uuid(),
  offer_name: z.string().nullable(),
  status: z.string(),
  previous_status: z.string().nullable(),
  status_reason: z.string().nullable(),
  payout: Money,
  previous_payout: Money.nullable(),
  currency: z.string(),
  call_id: z.string().nullable().describe("The tracker's call id"),
  duration_seconds: z.number().int().nullable(),
  state: z.string().nullable(),
  timestamp: IsoDateTime,
});
export type LeadEventData = z.infer<typeof LeadEventData>;

/**
 * The JSON body of every webhook, as Standard Webhooks recommends: `type`, `timestamp` (when the
 * event happened) and `data`. `data` of lead events is `LeadEventData`; of the others, the ids
 * and the new state of the record named by the type (see the README of server/modules/outbound).
 */
export const WebhookBody = z.object({
  type: WebhookEventType,
  timestamp: IsoDateTime,
  data: z.record(z.string(), z.unknown()),
});
export type WebhookBody = z.infer<typeof WebhookBody>;

// ---------------------------------------------------------------------------
// Webhook endpoints (Admin → Webhooks)
// ---------------------------------------------------------------------------

const HttpUrl = z
  .string()
  .trim()
  .max(2000, { error: 'The URL is too long (2,000 characters at most).' })
  .refine(
    (s) => {
      try {
        const u = new URL(s);
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
      } catch {
        return false;
      }
    },
    { error: 'Enter a full http:// or https:// URL.' },
  );

const EventList = z
  .array(WebhookEventType)
  .min(1, { error: 'Choose at least one event type.' })
  .transform((a) => [...new Set(a)]);

export const CreateWebhookEndpoint = z.object({
  url: HttpUrl,
  events: EventList,
  description: z.string().trim().max(200).optional(),
});
export type CreateWebhookEndpoint = z.infer<typeof CreateWebhookEndpoint>;

export const UpdateWebhookEndpoint = z
  .object({
    url: HttpUrl.optional(),
    events: EventList.optional(),
    description: z.string().trim().max(200).optional(),
    enabled: z.boolean().optional(),
  })
  .refine((o) => Object.keys(o).length > 0, { error: 'Send at least one field to change.' });
export type UpdateWebhookEndpoint = z.infer<typeof UpdateWebhookEndpoint>;

export const WebhookEndpoint = z.object({
  id: z.uuid(),
  url: z.string(),
  events: z.array(WebhookEventType),
  description: z.string().nullable(),
  enabled: z.boolean(),
  /** Set when the engine paused the endpoint after a day of failed deliveries. */
  paused_at: IsoDateTime.nullable(),
  failing_since: IsoDateTime.nullable(),
  /** Until then the previous secret signs too (after a rotation). */
  previous_secret_expires_at: IsoDateTime.nullable(),
  created_at: IsoDateTime,
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** The answer of a create or a rotation: the secret, shown this once. */
export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().describe('whsec_ + base64; shown once'),
});
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecret>;

export const WebhookEndpointList = z.object({ items: z.array(WebhookEndpoint) });

// ---------------------------------------------------------------------------
// Postbacks (the publisher's Profile → Postbacks, the admin's publisher page)
// ---------------------------------------------------------------------------

export const postbackEvents = ['approved', 'rejected', 'payout_changed', 'status_changed'] as const;
export const PostbackEvent = z.enum(postbackEvents, {
  error: 'The event is approved, rejected, payout_changed or status_changed.',
});
export type PostbackEvent = z.infer<typeof PostbackEvent>;

/** What each event means, for the screens. */
export const postbackEventLabels: Record<PostbackEvent, string> = {
  approved: 'Call payable (approved)',
  rejected: 'Call rejected',
  payout_changed: 'Payout changed',
  status_changed: 'Any status change',
};

/** The tokens a template may use, and what each is replaced with. */
export const postbackTokens = {
  call_id: 'Our call (lead) id',
  tracker_call_id: "The tracker's call id",
  offer_id: 'Offer id',
  offer_name: 'Offer name',
  payout: 'Payout, e.g. 12.50',
  currency: 'Currency, e.g. USD',
  status: 'pending, approved or rejected',
  reason: 'Why the call has its status',
  duration: 'Call length in seconds',
  state: "Caller's state, e.g. TX",
  caller_last4: "Last 4 digits of the caller's number",
  timestamp: 'When the event happened (ISO 8601)',
  event: 'The postback event (approved, rejected…)',
} as const;
export type PostbackToken = keyof typeof postbackTokens;
/** `{tag:name}` passes a tracker tag the operator marked passable. */
export const TAG_TOKEN_PREFIX = 'tag:';

export const PostbackTemplate = z.object({
  event: PostbackEvent,
  method: z.enum(['GET', 'POST'], { error: 'The method is GET or POST.' }),
  url: HttpUrl,
  body: z
    .string()
    .max(4000, { error: 'The body is too long (4,000 characters at most).' })
    .nullish()
    .transform((v) => (v ? v : null)),
  /** The admin may set a template for one offer; it wins over the publisher's own for that offer. */
  offer_id: z
    .uuid()
    .nullish()
    .transform((v) => v ?? null),
});
export type PostbackTemplate = z.infer<typeof PostbackTemplate>;

/** A template as the API answers it. */
export const SavedPostbackTemplate = z.object({
  event: PostbackEvent,
  method: z.enum(['GET', 'POST']),
  url: z.string(),
  body: z.string().nullable(),
  offer_id: z.uuid().nullable(),
  /** The offer's title when `offer_id` is set (the screens name the offer, not its id). */
  offer_title: z.string().nullable(),
});

export const PostbackTemplates = z.object({
  templates: z.array(SavedPostbackTemplate),
  /** Set when the engine paused these postbacks after a day of failed deliveries (a save resumes). */
  paused_at: IsoDateTime.nullable(),
  /** The tracker tags a template may pass as `{tag:name}`. */
  passable_tags: z.array(z.string()),
});
export type PostbackTemplates = z.infer<typeof PostbackTemplates>;

export const PutPostbackTemplates = z.object({
  templates: z.array(PostbackTemplate).max(200, { error: 'At most 200 templates.' }),
});
export type PutPostbackTemplates = z.infer<typeof PutPostbackTemplates>;

export const TestPostback = PostbackTemplate.omit({ offer_id: true });
export type TestPostback = z.infer<typeof TestPostback>;

/** What the receiver answered a test (or why nothing was sent). */
export const TestPostbackAnswer = z.object({
  request: z.object({ method: z.string(), url: z.string(), body: z.string().nullable() }),
  status: z.number().int().nullable(),
  body: z.string(),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
});
export type TestPostbackAnswer = z.infer<typeof TestPostbackAnswer>;

/** A tracker tag's name (a key of a lead's `tags`), as the operator types it. */
export const trackerTagName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, {
    error: 'A tag name is 1-64 letters, digits, dots, dashes or underscores.',
  });

/** A webhook endpoint's Test: a sample of this event type, signed, sent to its URL. */
export const TestWebhook = z.object({ event: WebhookEventType });
export type TestWebhook = z.infer<typeof TestWebhook>;

/** The tracker tags the operator lets through to postbacks as `{tag:name}`. */
export const PostbackSettings = z.object({
  passable_tags: z
    .array(trackerTagName)
    .max(50)
    .transform((a) => [...new Set(a)]),
});
export type PostbackSettings = z.infer<typeof PostbackSettings>;
/** The answer (a reply schema has no transforms). */
export const SavedPostbackSettings = z.object({ passable_tags: z.array(z.string()) });

// ---------------------------------------------------------------------------
// Deliveries (the log)
// ---------------------------------------------------------------------------

export const deliveryStates = ['pending', 'delivered', 'failed'] as const;
export const DeliveryState = z.enum(deliveryStates);

export const Delivery = z.object({
  id: z.uuid(),
  kind: z.enum(['webhook', 'postback']),
  event_id: z.uuid().describe('The idempotency key: the webhook-id header'),
  event_type: z.string(),
  method: z.string(),
  url: z.string(),
  request_body: z.string().nullable(),
  state: DeliveryState,
  attempts: z.number().int(),
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  last_duration_ms: z.number().int().nullable(),
  next_at: IsoDateTime.nullable().describe(
    'The next try while pending; null once done, or while it waits for an earlier postback of its lead',
  ),
  created_at: IsoDateTime,
  delivered_at: IsoDateTime.nullable(),
});
export type Delivery = z.infer<typeof Delivery>;

export const DeliveryAttempt = z.object({
  attempt: z.number().int(),
  started_at: IsoDateTime,
  duration_ms: z.number().int(),
  status: z.number().int().nullable(),
  error: z.string().nullable(),
  /** The first 2 KB of the answer. */
  response_body: z.string().nullable(),
  request_headers: z.record(z.string(), z.string()),
});

export const DeliveryDetail = Delivery.extend({ attempt_log: z.array(DeliveryAttempt) });
export type DeliveryDetail = z.infer<typeof DeliveryDetail>;

export const DeliveryListQuery = z.object({
  ...pageQuery(25),
  state: DeliveryState.optional(),
});
export type DeliveryListQuery = z.infer<typeof DeliveryListQuery>;
export const DeliveryList = pageOf(Delivery);
export type DeliveryList = z.infer<typeof DeliveryList>;
