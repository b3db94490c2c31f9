import { z } from 'zod';
import { FileLink } from './admin.ts';
import { nonBlankText, offerRef, publisherRef } from './admin-common.ts';
import { IsoDateTime, listQuery, Money, pageOf } from './list.ts';
import { LeadStatus } from './roles.ts';

/**
 * One lead opened (issue 13): the admin's detail (/api/v1/admin/leads/:id) and the publisher's
 * (/api/v1/publisher/leads/:id, own leads only), and the disputes a publisher opens on a lead.
 * The publisher's answer is a narrower schema: no revenue, no tags, the caller masked.
 */

// ---------------------------------------------------------------------------
// Disputes
// ---------------------------------------------------------------------------

export const disputeStatuses = ['open', 'accepted', 'declined'] as const;
export const DisputeStatus = z.enum(disputeStatuses, {
  error: 'status must be open, accepted or declined.',
});
export type DisputeStatus = z.infer<typeof DisputeStatus>;

/** Longest message of a dispute thread. */
export const DISPUTE_MESSAGE_MAX = 5000;

const messageText = nonBlankText(DISPUTE_MESSAGE_MAX, {
  required: 'Please write a message.',
  tooLong: `A message can be at most ${DISPUTE_MESSAGE_MAX} characters.`,
});

/**
 * POST /publisher/leads/:id/disputes (multipart: `message` and an optional `file`) and the
 * replies of both sides (JSON).
 */
export const DisputeMessageInput = z.object({ message: messageText });
export type DisputeMessageInput = z.infer<typeof DisputeMessageInput>;

/** POST /admin/disputes/:id/accept: an optional note to the publisher. */
export const AcceptDispute = z.object({ message: messageText.optional() });
export type AcceptDispute = z.infer<typeof AcceptDispute>;
/** POST /admin/disputes/:id/decline: the publisher is told why. */
export const DeclineDispute = z.object({ message: messageText });
export type DeclineDispute = z.infer<typeof DeclineDispute>;

export const DisputeMessage = z.object({
  id: z.string(),
  author: z.enum(['publisher', 'admin']),
  /** The publisher's name, or "Network team" for an admin (publishers never see admins' names). */
  author_name: z.string(),
  body: z.string(),
  /** An attached file with a signed URL valid 3600 s. */
  file: FileLink.nullable(),
  created_at: IsoDateTime,
});
export type DisputeMessage = z.infer<typeof DisputeMessage>;

export const LeadDispute = z.object({
  id: z.string(),
  status: DisputeStatus,
  created_at: IsoDateTime,
  decided_at: IsoDateTime.nullable(),
  messages: z.array(DisputeMessage),
});
export type LeadDispute = z.infer<typeof LeadDispute>;

/** GET /admin/disputes: open disputes first (by default only those), newest activity first. */
export const DisputeListQuery = listQuery(['updated_at'], 'updated_at', {
  status: DisputeStatus.default('open'),
});
export type DisputeListQuery = z.infer<typeof DisputeListQuery>;

export const AdminDisputeItem = z.object({
  id: z.string(),
  lead_id: z.string(),
  status: DisputeStatus,
  ...publisherRef,
  offer_title: z.string(),
  lead_status: LeadStatus,
  lead_payout: Money,
  /** The latest message of the thread (cut to 200 characters) and who wrote it. */
  last_message: z.string(),
  last_author: z.enum(['publisher', 'admin']),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
});
export type AdminDisputeItem = z.infer<typeof AdminDisputeItem>;
export const AdminDisputeList = pageOf(AdminDisputeItem);
export type AdminDisputeList = z.infer<typeof AdminDisputeList>;

export const DisputeIdParams = z.object({
  id: z.uuid({ error: 'This is not a valid dispute id.' }),
});

// ---------------------------------------------------------------------------
// Lead detail
// ---------------------------------------------------------------------------

export const LeadIdParams = z.object({ id: z.uuid({ error: 'This is not a valid lead id.' }) });

/** One entry of the lead's timeline: a tracker event received, or a change of status/payout. */
export const LeadTimelineEntry = z.object({
  id: z.number().int(),
  /** The tracker's event (incoming, connected, …); null when a rule or a person changed the lead. */
  event: z.string().nullable(),
  status: LeadStatus,
  status_reason: z.string().nullable(),
  duration_seconds: z.number().int().nullable(),
  payout: Money,
  created_at: IsoDateTime,
});
export type LeadTimelineEntry = z.infer<typeof LeadTimelineEntry>;

/** A change recorded in the audit log: what, by whom, and the fields it changed. */
export const LeadHistoryEntry = z.object({
  id: z.number().int(),
  /** e.g. lead.status, lead.create, dispute.accept. */
  action: z.string(),
  /**
   * The lead's publisher by name (to both sides); another admin's e-mail (admins) or "Network
   * team" (publishers); null for the system.
   */
  by: z.string().nullable(),
  changes: z.array(z.object({ field: z.string(), before: z.string(), after: z.string() })),
  created_at: IsoDateTime,
});
export type LeadHistoryEntry = z.infer<typeof LeadHistoryEntry>;

export const LeadRecording = z.object({
  /** A signed /files URL (stored by the portal) or the tracker's own link. */
  url: z.string(),
  stored: z.boolean(),
});

const leadDetailFields = {
  id: z.string(),
  ...offerRef,
  publisher_id: z.string(),
  publisher_name: z.string().nullable(),
  /** Full number for admins; `•••• 1234` for publishers (masked by the server). */
  caller: z.string().nullable(),
  tracking_number: z.string().nullable(),
  timestamp: IsoDateTime,
  /** Precise length; null for a lead recorded by hand in whole minutes. */
  duration_seconds: z.number().int().nullable(),
  /** Whole minutes, as lists show them. */
  call_duration: z.number().int(),
  /** The offer's billable duration buffer in seconds, when the offer has one. */
  billable_buffer_seconds: z.number().int().nullable(),
  payout: Money,
  status: LeadStatus,
  status_reason: z.string().nullable(),
  recording: LeadRecording.nullable(),
  state: z.string().nullable(),
  zip: z.string().nullable(),
  last_event: z.string().nullable(),
  timeline: z.array(LeadTimelineEntry),
  history: z.array(LeadHistoryEntry),
  disputes: z.array(LeadDispute),
};

/** GET /publisher/leads/:id. */
export const PublisherLeadDetail = z.object({
  ...leadDetailFields,
  /** True when the publisher may open a dispute now (rejected or unpaid, none open). */
  can_dispute: z.boolean(),
});
export type PublisherLeadDetail = z.infer<typeof PublisherLeadDetail>;

/** GET /admin/leads/:id. */
export const AdminLeadDetail = z.object({
  ...leadDetailFields,
  publisher_email: z.string(),
  /** What the buyer paid the network (admins only). */
  revenue: Money.nullable(),
  tags: z.record(z.string(), z.unknown()).nullable(),
  integration_id: z.string().nullable(),
  integration_name: z.string().nullable(),
  external_call_id: z.string().nullable(),
  /** The offer's script version in force at the call (issue 33); null: the offer had none. */
  script_version: z.number().int().nullable(),
  /** Judged payable while the publisher had not acknowledged that version in time. */
  script_unacknowledged: z.boolean(),
  /** The buyer campaign the call was delivered to (issue 31), billed or why not. */
  campaign: z
    .object({
      id: z.string(),
      name: z.string(),
      buyer_email: z.string(),
      billed: Money.nullable(),
      bill_reason: z.string().nullable(),
    })
    .nullable(),
});
export type AdminLeadDetail = z.infer<typeof AdminLeadDetail>;

/** `•••• 1234`: the last 4 digits of a phone number, what a publisher may see of a caller. */
export function maskCaller(caller: string | null): string | null {
  if (caller === null) return null;
  const digits = caller.replace(/\D/g, '');
  return digits.length === 0 ? '••••' : `•••• ${digits.slice(-4)}`;
}

/** A lead a publisher may dispute: rejected, or not paid (pending, or a zero payout). */
export function isDisputableLead(lead: { status: LeadStatus; payout: number }): boolean {
  return lead.status !== 'approved' || lead.payout === 0;
}
