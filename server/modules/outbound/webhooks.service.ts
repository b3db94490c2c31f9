import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import type {
  CreateWebhookEndpoint,
  LeadEventData,
  TestPostbackAnswer,
  UpdateWebhookEndpoint,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookEventType,
} from '../../../contract/outbound.ts';
import type { DbOrTx } from '../../db/client.ts';
import { apiFields, oneOrNotFound } from '../../db/rows.ts';
import { webhookEndpoints } from '../../db/schema.ts';
import { type AdminAction, type AdminEdit, type AdminWrite, auditTrail } from '../audit/index.ts';
import { type OutboundPolicy, sendOutbound, testAnswerOf } from './safe-http.ts';
import { newWebhookSecret, webhookHeaders } from './signing.ts';

/** Admin → Webhooks: the operator's endpoints, their secrets and rotation. */

type Row = typeof webhookEndpoints.$inferSelect;
const audit = auditTrail('webhook_endpoint', 'webhook');
/** After a rotation the old secret keeps signing this long, beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

export function toEndpoint(row: Row): WebhookEndpoint {
  const { secret: _s, previousSecret: _p, createdBy: _c, updatedAt: _u, events, ...rest } = row;
  return { ...apiFields(rest), events: events as WebhookEventType[] };
}

/** What the audit log keeps of an endpoint (never a secret). */
const audited = (row: Row) => ({ url: row.url, events: row.events, enabled: row.enabled });

export async function listEndpoints(opts: { db: DbOrTx }): Promise<{ items: WebhookEndpoint[] }> {
  const rows = await opts.db
    .select()
    .from(webhookEndpoints)
    .orderBy(asc(webhookEndpoints.createdAt));
  return { items: rows.map(toEndpoint) };
}

export async function getEndpoint(opts: { db: DbOrTx; id: string }): Promise<WebhookEndpoint> {
  return toEndpoint(await endpointRow(opts.db, opts.id));
}

const endpointRow = (db: DbOrTx, id: string) =>
  oneOrNotFound(
    db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)),
    'Webhook endpoint',
  );

/** A new endpoint; the answer carries its secret, the only time it is shown. */
export async function createEndpoint(
  opts: AdminWrite<CreateWebhookEndpoint>,
): Promise<WebhookEndpointWithSecret> {
  const { input, actor } = opts;
  return opts.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        url: input.url,
        events: input.events,
        description: input.description || null,
        secret: newWebhookSecret(),
        createdBy: actor.id,
      })
      .returning();
    if (!row) throw new Error('insert returned nothing');
    await audit(tx, actor, 'create', row.id, { before: null, after: audited(row) });
    return { ...toEndpoint(row), secret: row.secret };
  });
}

/** URL, events, description, on/off. Turning it on again clears a pause. */
export async function updateEndpoint(
  opts: AdminEdit<UpdateWebhookEndpoint>,
): Promise<WebhookEndpoint> {
  const { input, actor, id } = opts;
  return opts.db.transaction(async (tx) => {
    const before = await endpointRow(tx, id);
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        ...(input.url !== undefined && { url: input.url }),
        ...(input.events !== undefined && { events: input.events }),
        ...(input.description !== undefined && { description: input.description || null }),
        ...(input.enabled !== undefined && { enabled: input.enabled }),
        ...(input.enabled === true && { pausedAt: null, failingSince: null }),
        updatedAt: new Date(),
      })
      .where(eq(webhookEndpoints.id, id))
      .returning();
    if (!row) throw new Error('update returned nothing');
    await audit(tx, actor, 'update', id, { before: audited(before), after: audited(row) });
    return toEndpoint(row);
  });
}

/** Deletes the endpoint and its delivery log. */
export async function deleteEndpoint(opts: AdminAction): Promise<void> {
  await opts.db.transaction(async (tx) => {
    const before = await endpointRow(tx, opts.id);
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, opts.id));
    await audit(tx, opts.actor, 'delete', opts.id, { before: audited(before), after: null });
  });
}

/**
 * A new secret, answered once; the old one signs too for 24 h (Standard Webhooks lets a
 * receiver accept any of several `v1,` signatures), so receivers can switch without a gap.
 */
export async function rotateSecret(opts: AdminAction): Promise<WebhookEndpointWithSecret> {
  return opts.db.transaction(async (tx) => {
    const before = await endpointRow(tx, opts.id);
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        secret: newWebhookSecret(),
        previousSecret: before.secret,
        previousSecretExpiresAt: new Date(Date.now() + ROTATION_OVERLAP_MS),
        updatedAt: new Date(),
      })
      .where(eq(webhookEndpoints.id, opts.id))
      .returning();
    if (!row) throw new Error('update returned nothing');
    await audit(tx, opts.actor, 'rotate_secret', opts.id, { before: null, after: null });
    return { ...toEndpoint(row), secret: row.secret };
  });
}

/** The `data` of a Test: a sample lead for the lead events, a marked sample for the others. */
function sampleData(event: WebhookEventType, currency: string, at: string) {
  if (!event.startsWith('lead.')) return { sample: true };
  return {
    lead_id: '00000000-0000-7000-8000-000000000000',
    publisher_id: '00000000-0000-7000-8000-000000000001',
    offer_id: '00000000-0000-4000-8000-000000000000',
    offer_name: 'Sample offer',
    status: 'approved',
    previous_status: event === 'lead.created' ? null : 'pending',
    status_reason: null,
    payout: 12.5,
    previous_payout: event === 'lead.created' ? null : 0,
    currency,
    call_id: 'TEST-CALL-1',
    duration_seconds: 95,
    state: 'TX',
    timestamp: at,
  } satisfies LeadEventData;
}

/** Test: a sample event signed with the endpoint's secret, sent now; the receiver's answer. */
export async function testEndpoint(opts: {
  db: DbOrTx;
  id: string;
  event: WebhookEventType;
  currency: string;
  policy: OutboundPolicy;
}): Promise<TestPostbackAnswer> {
  const row = await endpointRow(opts.db, opts.id);
  const now = new Date();
  const at = now.toISOString();
  const body = JSON.stringify({
    type: opts.event,
    timestamp: at,
    data: sampleData(opts.event, opts.currency, at),
  });
  const headers = webhookHeaders(
    [row.secret],
    randomUUID(),
    Math.floor(now.getTime() / 1000),
    body,
  );
  const answer = await sendOutbound({ method: 'POST', url: row.url, headers, body }, opts.policy);
  return testAnswerOf({ method: 'POST', url: row.url, body }, answer);
}
