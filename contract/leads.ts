import { z } from 'zod';
import { offerPick, offerRef, publisherPick, publisherRef } from './admin-common.ts';
import { leadFilterFields } from './lead-actions.ts';
import {
  fromNotAfterTo,
  IsoDateTime,
  IsoDateTimeInput,
  Money,
  moneyInput,
  pageOf,
  pageQuery,
  sortQuery,
} from './list.ts';
import { LeadStatus } from './roles.ts';

/** The admin leads list and a lead recorded by hand. */
// ---------------------------------------------------------------------------
// Leads
// ---------------------------------------------------------------------------

/**
 * The leads list's filters (contract/lead-actions.ts, shared with its totals and bulk action)
 * and sort; the list pages them, the CSV export takes them all.
 */
const leadFilter = {
  ...leadFilterFields,
  ...sortQuery(['timestamp', 'payout', 'call_duration'] as const, 'timestamp'),
};
export const LeadListQuery = fromNotAfterTo(z.object({ ...pageQuery(), ...leadFilter }));
export type LeadListQuery = z.infer<typeof LeadListQuery>;
/** GET /admin/leads.csv: the list's filters and sort, without paging. */
export const LeadCsvQuery = fromNotAfterTo(z.object(leadFilter));
export type LeadCsvQuery = z.infer<typeof LeadCsvQuery>;

/** What a lead row says of its call, in the admin's list and in the publisher's alike. */
export const leadCallFields = {
  payout: Money,
  status: LeadStatus,
  /** Minutes. */
  call_duration: z.number().int(),
  timestamp: IsoDateTime,
  /** The tracker's call id (null for a lead recorded by hand). */
  call_id: z.string().nullable(),
};

export const AdminLead = z.object({
  id: z.string(),
  ...publisherRef,
  ...offerRef,
  ...leadCallFields,
  /** The caller in E.164 (as sent when it could not be read as a number). */
  caller: z.string().nullable(),
});
export type AdminLead = z.infer<typeof AdminLead>;
export const LeadList = pageOf(AdminLead);
export type LeadList = z.infer<typeof LeadList>;

/** POST /admin/leads: record a lead by hand. */
export const CreateLead = z.object({
  ...publisherPick,
  ...offerPick,
  /** Defaults to the offer's payout. */
  payout: moneyInput('Payout').optional(),
  status: LeadStatus.default('pending'),
  call_duration: z
    .number({ error: 'Call duration must be a whole number of minutes.' })
    .int({ error: 'Call duration must be a whole number of minutes.' })
    .min(0, { error: 'Call duration cannot be negative.' })
    .max(100_000, { error: 'Call duration is too long.' })
    .default(0),
  /** Defaults to now; may not lie in the future. */
  timestamp: IsoDateTimeInput('Use an ISO date-time for the timestamp.').optional(),
});
export type CreateLead = z.input<typeof CreateLead>;

/** PATCH /admin/leads/:id: a status set by hand, with its reason (contract/lead-actions.ts). */
export { UpdateLeadStatus } from './lead-actions.ts';
