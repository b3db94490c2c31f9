import { z } from 'zod';
import { uuidParam } from './admin-common.ts';
import {
  dateRangeQuery,
  fromNotAfterTo,
  IsoDateTime,
  IsoDateTimeInput,
  Money,
  moneyInput,
  pageOf,
  pageQuery,
  searchParam,
  sortQuery,
} from './list.ts';
import { LeadStatus } from './roles.ts';

/** The admin leads list and a lead recorded by hand. */
// ---------------------------------------------------------------------------
// Leads
// ---------------------------------------------------------------------------

/** The leads list's filters and sort; the list pages them, the CSV export takes them all. */
const leadFilter = {
  /**
   * Finds a call by what the tracker shows: its call id, or the caller's or the tracking
   * number's digits in any format (`(310) 555-0182`, `+13105550182`).
   */
  q: searchParam,
  status: LeadStatus.optional(),
  publisher_id: uuidParam('publisher').optional(),
  offer_id: uuidParam('offer').optional(),
  /** The caller's state (`NY`); `none`: calls without a state. Reports drill in with it. */
  state: z.string().trim().max(40, { error: 'The state can be at most 40 characters.' }).optional(),
  /** The vertical of the lead's offer. */
  vertical: z
    .string()
    .trim()
    .max(200, { error: 'The vertical can be at most 200 characters.' })
    .optional(),
  ...dateRangeQuery,
  ...sortQuery(['timestamp', 'payout', 'call_duration'] as const, 'timestamp'),
};
export const LeadListQuery = fromNotAfterTo(z.object({ ...pageQuery(), ...leadFilter }));
export type LeadListQuery = z.infer<typeof LeadListQuery>;
/** GET /admin/leads.csv: the list's filters and sort, without paging. */
export const LeadCsvQuery = fromNotAfterTo(z.object(leadFilter));
export type LeadCsvQuery = z.infer<typeof LeadCsvQuery>;

export const AdminLead = z.object({
  id: z.string(),
  publisher_id: z.string(),
  publisher_name: z.string().nullable(),
  publisher_email: z.string(),
  offer_id: z.string(),
  offer_title: z.string(),
  payout: Money,
  status: LeadStatus,
  /** Minutes. */
  call_duration: z.number().int(),
  timestamp: IsoDateTime,
  /** The tracker's call id (null for a lead recorded by hand). */
  call_id: z.string().nullable(),
  /** The caller in E.164 (as sent when it could not be read as a number). */
  caller: z.string().nullable(),
});
export type AdminLead = z.infer<typeof AdminLead>;
export const LeadList = pageOf(AdminLead);
export type LeadList = z.infer<typeof LeadList>;

/** POST /admin/leads: record a lead by hand. */
export const CreateLead = z.object({
  publisher_id: z.uuid({ error: 'Please select a publisher.' }),
  offer_id: z.uuid({ error: 'Please select an offer.' }),
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
