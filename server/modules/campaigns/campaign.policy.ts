import { CAMPAIGN_LIFECYCLE_MESSAGES as M } from '../../../contract/buyer.ts';
import type { CampaignPauser, CampaignStatus } from '../../../contract/roles.ts';

/**
 * Who may move a campaign from which status to which (issue 31); pure, so the rules read in
 * one place: pending → active (approve) or rejected, by an admin; active → paused by the buyer,
 * an admin or the billing (budget, end date, daily cap, a prepaid balance spent); paused → active by the buyer unless an
 * admin paused it, and never while the reason still holds; active or paused → ended.
 * Each answers null when the move is allowed, else the sentence of the 409.
 */

export type Who = 'buyer' | 'admin';

export type CampaignState = {
  status: CampaignStatus;
  pausedBy: CampaignPauser | null;
  budget: number | null;
  spent: number;
  pricePerCall: number | null;
  endDate: string | null;
};

export const refuseDecision = (c: Pick<CampaignState, 'status'>): string | null =>
  c.status === 'pending' ? null : M.notPending;

export const refusePause = (c: Pick<CampaignState, 'status'>): string | null =>
  c.status === 'active' ? null : M.notPausable;

export const refuseEnd = (c: Pick<CampaignState, 'status'>): string | null =>
  c.status === 'active' || c.status === 'paused' ? null : M.notEndable;

/** True when one more call at the campaign's price still fits the budget. */
export const budgetHasRoom = (c: CampaignState): boolean =>
  c.budget === null || c.spent + Math.max(c.pricePerCall ?? 0, 0.01) <= c.budget;

/** `today`: YYYY-MM-DD in the network's time zone. */
export function refuseResume(c: CampaignState, who: Who, today: string): string | null {
  if (c.status !== 'paused') return M.notPaused;
  if (c.pausedBy === 'admin' && who !== 'admin') return M.pausedByAdmin;
  if (!budgetHasRoom(c)) return M.budgetSpent;
  if (c.endDate !== null && c.endDate < today) return M.endDatePassed;
  if (c.pausedBy === 'daily_cap' && who !== 'admin') return M.dailyCap;
  if (c.pausedBy === 'balance' && who !== 'admin') return M.balance;
  return null;
}
