import { z } from 'zod';
import { offerRef } from './admin-common.ts';
import { Money } from './list.ts';
import { LeadStatus } from './roles.ts';

/**
 * GET /api/v1/live (issue 32): Server-Sent Events of the signed-in user's scope (the admin
 * everything, a publisher their own calls, a buyer their campaigns' calls). Each message's
 * `event:` names one of the shapes below and its `data:` is that shape as JSON.
 */

/** One call as the live screens show it, in its current state. */
export const LiveLead = z.object({
  id: z.string(),
  /** `created`: this batch holds the call's first timeline row; `changed` otherwise. */
  kind: z.enum(['created', 'changed']),
  timestamp: z.string(),
  status: LeadStatus,
  /** The furthest tracker event seen (incoming, connected, completed, …). */
  last_event: z.string().nullable(),
  /** Ringing or talking: its last event is `incoming` or `connected`, and it is not rejected. */
  in_progress: z.boolean(),
  duration_seconds: z.number().int().nullable(),
  caller: z.string().nullable(),
  ...offerRef,
  publisher_id: z.string(),
  /** The admin's stream only (null for the others). */
  publisher_name: z.string().nullable(),
  payout: Money,
  /** The admin's stream only (null for the others). */
  revenue: Money.nullable(),
});
export type LiveLead = z.infer<typeof LiveLead>;

/** Today's figures of the scope (days of the network's time zone). */
export const LiveCounters = z.object({
  calls_today: z.number().int(),
  in_progress: z.number().int(),
  /** Approved calls today (the reports' "payable"). */
  payable_today: z.number().int(),
  /** Payout of today's payable calls. */
  payout_today: Money,
  /** The admin's stream only (null for the others). */
  revenue_today: Money.nullable(),
  /** Calls per minute over the last hour, oldest first (60 entries, the current minute last). */
  per_minute: z.array(z.object({ minute: z.string(), calls: z.number().int() })),
});
export type LiveCounters = z.infer<typeof LiveCounters>;

/** `event: snapshot`, first on a fresh stream: the last 100 calls of today and the counters. */
export const LiveSnapshot = z.object({
  leads: z.array(LiveLead),
  counters: LiveCounters,
});
export type LiveSnapshot = z.infer<typeof LiveSnapshot>;

/** `event: leads`: the calls one batch of writes created or changed (one per call). */
export const LiveLeads = z.object({ leads: z.array(LiveLead) });
export type LiveLeads = z.infer<typeof LiveLeads>;

/** `event: end`: the server closes the stream (signed out, blocked, shutting down). */
export const LiveEnd = z.object({
  reason: z.enum(['signed_out', 'blocked', 'shutdown']),
  message: z.string(),
});
export type LiveEnd = z.infer<typeof LiveEnd>;

/** Every message the stream sends, by its `event:` name (`counters` carries LiveCounters). */
export type LiveMessage =
  | { event: 'snapshot'; data: LiveSnapshot }
  | { event: 'leads'; data: LiveLeads }
  | { event: 'counters'; data: LiveCounters }
  | { event: 'end'; data: LiveEnd };
