import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import {
  type AdminLeadDetail,
  isDisputableLead,
  type LeadDispute,
  type LeadHistoryEntry,
  maskCaller,
  type PublisherLeadDetail,
} from '../../../contract/lead-detail.ts';
import { displayName } from '../../../contract/uploads.ts';
import type { DbOrTx } from '../../db/client.ts';
import { toMoney } from '../../db/money.ts';
import { publisherRefColumns } from '../../db/refs.ts';
import { oneOrNotFound, type RecordRead } from '../../db/rows.ts';
import {
  auditLog,
  campaigns,
  integrations,
  leadDisputeMessages,
  leadDisputes,
  leadEvents,
  leads,
  offers,
  users,
} from '../../db/schema.ts';

/**
 * One lead as its detail screen shows it (issue 13), for the admin and for the publisher who
 * owns it. Shared by the two areas, so it lives beside the schema. Every publisher-facing
 * narrowing (no revenue, no tags, the caller masked, admins unnamed) happens here, on the server.
 */

/** Turns a storage key into a signed, expiring URL (the caller's storage). */
export type SignKey = (key: string) => string;

/** What an admin is called in front of a publisher. */
export const NETWORK_TEAM = 'Network team';

/** Audit fields a publisher may see in the history of their lead; the rest stays admin-only. */
const PUBLISHER_VISIBLE_FIELDS = new Set([
  'dispute',
  'status',
  'status_reason',
  'reason',
  'payout',
  'call_duration',
  'duration_seconds',
]);

const TIMELINE_LIMIT = 200;
const HISTORY_LIMIT = 100;

/** The offer's billable duration buffer (offers.buffer_seconds, the offer rules), if it has one. */
function bufferOf(offer: Record<string, unknown>): number | null {
  const v = offer.bufferSeconds;
  return typeof v === 'number' ? v : null;
}

const show = (v: unknown): string =>
  v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/**
 * Who made a history entry, as the viewer reads it: the lead's publisher by their name (for
 * both sides: their own dispute is theirs, not the network's); another admin by e-mail for an
 * admin, as "Network team" for the publisher; null for the system.
 */
function authorOf(
  r: typeof auditLog.$inferSelect,
  viewer: 'admin' | 'publisher',
  publisher: { id: string; name: string },
): string | null {
  if (r.actorId && r.actorId === publisher.id) return publisher.name;
  if (viewer === 'admin') return r.actorEmail;
  return r.actorId ? NETWORK_TEAM : null;
}

function historyOf(
  rows: (typeof auditLog.$inferSelect)[],
  viewer: 'admin' | 'publisher',
  publisher: { id: string; name: string },
): LeadHistoryEntry[] {
  return rows.flatMap((r) => {
    const before = (r.before ?? {}) as Record<string, unknown>;
    const after = (r.after ?? {}) as Record<string, unknown>;
    const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
      (f) => viewer === 'admin' || PUBLISHER_VISIBLE_FIELDS.has(f),
    );
    const changes = fields
      .map((field) => ({ field, before: show(before[field]), after: show(after[field]) }))
      .filter((c) => c.before !== c.after);
    if (viewer === 'publisher' && changes.length === 0) return [];
    return [
      {
        id: r.id,
        action: r.action,
        by: authorOf(r, viewer, publisher),
        changes,
        created_at: r.createdAt.toISOString(),
      },
    ];
  });
}

async function disputesOf(
  db: DbOrTx,
  leadId: string,
  sign: SignKey,
  viewer: 'admin' | 'publisher',
): Promise<LeadDispute[]> {
  const disputes = await db
    .select()
    .from(leadDisputes)
    .where(eq(leadDisputes.leadId, leadId))
    .orderBy(asc(leadDisputes.createdAt), asc(leadDisputes.id));
  if (!disputes.length) return [];
  const messages = await db
    .select({
      id: leadDisputeMessages.id,
      disputeId: leadDisputeMessages.disputeId,
      authorRole: leadDisputeMessages.authorRole,
      authorName: users.name,
      authorEmail: users.email,
      body: leadDisputeMessages.body,
      fileKey: leadDisputeMessages.fileKey,
      createdAt: leadDisputeMessages.createdAt,
    })
    .from(leadDisputeMessages)
    .leftJoin(users, eq(users.id, leadDisputeMessages.authorId))
    .where(
      inArray(
        leadDisputeMessages.disputeId,
        disputes.map((d) => d.id),
      ),
    )
    .orderBy(asc(leadDisputeMessages.createdAt), asc(leadDisputeMessages.id));
  return disputes.map((d) => ({
    id: d.id,
    status: d.status,
    created_at: d.createdAt.toISOString(),
    decided_at: d.decidedAt?.toISOString() ?? null,
    messages: messages
      .filter((m) => m.disputeId === d.id)
      .map((m) => ({
        id: m.id,
        author: m.authorRole,
        author_name:
          m.authorRole === 'admin'
            ? viewer === 'admin'
              ? (m.authorEmail ?? NETWORK_TEAM)
              : NETWORK_TEAM
            : (m.authorName ?? m.authorEmail ?? 'Publisher'),
        body: m.body,
        file: m.fileKey ? { name: displayName(m.fileKey), url: sign(m.fileKey) } : null,
        created_at: m.createdAt.toISOString(),
      })),
  }));
}

/**
 * The lead with everything its detail shows. `publisherId` scopes the read to that publisher's
 * own leads: another publisher's lead is "not found", exactly like a lead that does not exist.
 */
async function readLead(db: DbOrTx, id: string, publisherId: string | null) {
  const row = await oneOrNotFound(
    db
      .select({
        lead: leads,
        offer: offers,
        ...publisherRefColumns(leads.publisherId),
        integrationName: integrations.name,
      })
      .from(leads)
      .innerJoin(offers, eq(offers.id, leads.offerId))
      .innerJoin(users, eq(users.id, leads.publisherId))
      .leftJoin(integrations, eq(integrations.id, leads.integrationId))
      .where(and(eq(leads.id, id), publisherId ? eq(leads.publisherId, publisherId) : undefined)),
    'Lead',
  );
  const [timeline, audit] = await Promise.all([
    db
      .select()
      .from(leadEvents)
      .where(eq(leadEvents.leadId, id))
      .orderBy(asc(leadEvents.id))
      .limit(TIMELINE_LIMIT),
    db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'lead'), eq(auditLog.entityId, id)))
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(HISTORY_LIMIT),
  ]);
  return { ...row, timeline, audit };
}

function commonFields(
  r: Awaited<ReturnType<typeof readLead>>,
  sign: SignKey,
  viewer: 'admin' | 'publisher',
) {
  const l = r.lead;
  const recording = l.recordingKey
    ? { url: sign(l.recordingKey), stored: true }
    : l.recordingUrl
      ? { url: l.recordingUrl, stored: false }
      : null;
  return {
    id: l.id,
    offer_id: l.offerId,
    offer_title: r.offer.title,
    publisher_id: l.publisherId,
    publisher_name: r.publisherName,
    caller: viewer === 'admin' ? l.caller : maskCaller(l.caller),
    tracking_number: l.trackingNumber,
    timestamp: l.timestamp.toISOString(),
    duration_seconds: l.durationSeconds,
    call_duration: l.callDuration,
    billable_buffer_seconds: bufferOf(r.offer as unknown as Record<string, unknown>),
    payout: toMoney(l.payout),
    status: l.status,
    status_reason: l.statusReason,
    recording,
    state: l.state,
    zip: l.zip,
    last_event: l.lastEvent,
    timeline: r.timeline.map((e) => ({
      id: e.id,
      event: e.event,
      status: e.status,
      status_reason: e.statusReason,
      duration_seconds: e.durationSeconds,
      payout: toMoney(e.payout),
      created_at: e.createdAt.toISOString(),
    })),
    history: historyOf(r.audit, viewer, {
      id: l.publisherId,
      name: r.publisherName || r.publisherEmail,
    }),
  };
}

/** GET /admin/leads/:id. */
export async function getAdminLeadDetail(
  opts: RecordRead & { sign: SignKey },
): Promise<AdminLeadDetail> {
  const r = await readLead(opts.db, opts.id, null);
  const l = r.lead;
  return {
    ...commonFields(r, opts.sign, 'admin'),
    publisher_email: r.publisherEmail,
    revenue: l.revenue === null ? null : toMoney(l.revenue),
    tags: l.tags ?? null,
    integration_id: l.integrationId,
    integration_name: r.integrationName,
    external_call_id: l.externalCallId,
    script_version: l.scriptVersion,
    script_unacknowledged: l.scriptUnacknowledged,
    campaign: await campaignOf(opts.db, l),
    disputes: await disputesOf(opts.db, l.id, opts.sign, 'admin'),
  };
}

/** The buyer campaign of a lead (issue 31), as the admin's lead detail shows it. */
async function campaignOf(
  db: DbOrTx,
  l: typeof leads.$inferSelect,
): Promise<AdminLeadDetail['campaign']> {
  if (!l.campaignId) return null;
  const [c] = await db
    .select({ id: campaigns.id, name: campaigns.name, buyerEmail: users.email })
    .from(campaigns)
    .innerJoin(users, eq(users.id, campaigns.buyerId))
    .where(eq(campaigns.id, l.campaignId));
  if (!c) return null;
  return {
    id: c.id,
    name: c.name,
    buyer_email: c.buyerEmail,
    billed: l.billedAmount === null ? null : toMoney(l.billedAmount),
    bill_reason: l.billReason,
  };
}

/** GET /publisher/leads/:id: the publisher's own lead only (another's is a 404). */
export async function getPublisherLeadDetail(
  opts: RecordRead & { sign: SignKey; publisherId: string },
): Promise<PublisherLeadDetail> {
  const r = await readLead(opts.db, opts.id, opts.publisherId);
  const disputes = await disputesOf(opts.db, r.lead.id, opts.sign, 'publisher');
  const common = commonFields(r, opts.sign, 'publisher');
  return {
    ...common,
    disputes,
    can_dispute:
      isDisputableLead({ status: common.status, payout: common.payout }) &&
      !disputes.some((d) => d.status === 'open'),
  };
}
