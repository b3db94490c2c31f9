import { z } from 'zod';
import { optionalNote, requiredField, uuidParam } from './admin-common.ts';
import { IsoDateTime, listQuery, Money, pageOf, pagingFields } from './list.ts';
import { CallReturnStatus } from './roles.ts';

/**
 * The calls a buyer received (issue 31): their list and CSV, their dashboard, and returns.
 * Never the publisher or the payout.
 */

export const BuyerCallListQuery = listQuery(['timestamp'], 'timestamp', {
  campaign_id: uuidParam('campaign').optional(),
});
export type BuyerCallListQuery = z.output<typeof BuyerCallListQuery>;
/** The CSV export takes the list's filter and sort (paging does not apply). */
export const BuyerCallCsvQuery = BuyerCallListQuery.omit(pagingFields);
export type BuyerCallCsvQuery = z.output<typeof BuyerCallCsvQuery>;

/** The buyer campaign a call (or its return) was delivered to. */
const campaignRef = { campaign_id: z.string(), campaign_name: z.string() };

export const BuyerCall = z.object({
  id: z.string(),
  timestamp: IsoDateTime,
  ...campaignRef,
  /** Last 4 digits (`•••• 1234`) unless Settings let buyers see the whole number. */
  caller: z.string().nullable(),
  state: z.string().nullable(),
  duration_seconds: z.number().int().nullable(),
  billable: z.boolean(),
  /** Why it is not billed (or "Billed 25.00"); null until the call is judged. */
  bill_reason: z.string().nullable(),
  price: Money.nullable(),
  recording_url: z.string().nullable(),
  /** The buyer's return of this call, if any. */
  return_status: CallReturnStatus.nullable(),
});
export type BuyerCall = z.infer<typeof BuyerCall>;
export const BuyerCallList = pageOf(BuyerCall);
export type BuyerCallList = z.infer<typeof BuyerCallList>;

/** GET /api/v1/buyer/dashboard: spend against the budgets, calls delivered and billable. */
export const BuyerDashboard = z.object({
  spend_today: Money,
  spend_month: Money,
  /** Sum of the budgets of the active and paused campaigns that have one. */
  budget: Money.nullable(),
  spent_total: Money,
  /** This month's calls (days of the network's zone) delivered to the buyer's campaigns. */
  calls_delivered: z.number().int(),
  /** Of those, the ones billed. */
  calls_billable: z.number().int(),
  /** Their average duration in seconds; null without calls. */
  avg_duration_seconds: z.number().nullable(),
  /** Today in the network's time zone (the burn-down's last actual day). */
  today: z.string(),
  /**
   * The latest end date of the live campaigns that have a budget (the burn-down's projection runs
   * to it); null when one of them has no end date or none has a budget.
   */
  end_date: z.string().nullable(),
  /** Spend per day of the last 30 days of the network's time zone (the burn-down). */
  days: z.array(z.object({ day: z.string(), spent: Money, calls: z.number().int() })),
});
export type BuyerDashboard = z.infer<typeof BuyerDashboard>;

export const RETURN_MESSAGES = {
  notBillable: 'Only a billed call can be returned.',
  tooLate: (days: number) => `A call can be returned within ${days} days of it.`,
  already: 'This call was already returned.',
  decided: 'This return was already decided.',
} as const;

/** POST /api/v1/buyer/calls/:id/return */
export const ReturnCallBody = z.object({
  reason: requiredField('reason', 200, 'Please give the reason for the return.'),
  note: optionalNote(2000),
});
export type ReturnCallBody = z.output<typeof ReturnCallBody>;

export const CallReturn = z.object({
  id: z.string(),
  lead_id: z.string(),
  ...campaignRef,
  buyer_id: z.string(),
  buyer_email: z.string(),
  reason: z.string(),
  note: z.string().nullable(),
  amount: Money,
  status: CallReturnStatus,
  decision_note: z.string().nullable(),
  decided_at: IsoDateTime.nullable(),
  created_at: IsoDateTime,
});
export type CallReturn = z.infer<typeof CallReturn>;

/** Admin → Returns */
export const ReturnListQuery = listQuery(['created_at'], 'created_at', {
  status: CallReturnStatus.optional(),
});
export type ReturnListQuery = z.output<typeof ReturnListQuery>;
export const ReturnList = pageOf(CallReturn);
export type ReturnList = z.infer<typeof ReturnList>;

/** POST /api/v1/admin/returns/:id/accept | decline */
export const DecideReturn = z.object({
  note: optionalNote(2000),
});
export type DecideReturn = z.output<typeof DecideReturn>;
