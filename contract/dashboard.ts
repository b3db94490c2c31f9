import { z } from 'zod';
import { Money } from './list.ts';
import { Balance } from './money.ts';
import { AdminWaiting } from './notifications.ts';

/** The admin dashboard (issue 12, 27). */
// ---------------------------------------------------------------------------
// Stats
// ---------------------------------------------------------------------------

/** GET /admin/stats: the three dashboard cards. */
export const AdminStats = AdminWaiting.extend({
  /**
   * Calls our endpoint refused in the last 24 hours (counted up to `REFUSED_CALLS_CAP`; at the
   * cap, "1,000+").
   */
  refused_calls_24h: z.number().int(),
  /** Publishers owed money whose payout a run would hold now (Settings' hold conditions). */
  held_payouts: z.number().int(),
  /** Payouts marked paid, the whole network (the Total Payouts card). */
  total_payouts: Money,
  /** The network's money figures (paid and recorded apart), as every screen defines them. */
  balance: Balance,
});
export type AdminStats = z.infer<typeof AdminStats>;

/** GET /admin/stats/daily?days=30: the dashboard chart. */
export const DailyStatsQuery = z.object({
  days: z.coerce
    .number({ error: 'days must be a whole number from 1 to 366.' })
    .int({ error: 'days must be a whole number from 1 to 366.' })
    .min(1, { error: 'days must be a whole number from 1 to 366.' })
    .max(366, { error: 'days must be a whole number from 1 to 366.' })
    .default(30),
});
export const DailyStats = z.object({
  /** One entry per day of the network's time zone, oldest first, today last; quiet days zero. */
  days: z.array(z.object({ date: z.string(), leads: z.number().int(), payouts: Money })),
});
export type DailyStats = z.infer<typeof DailyStats>;

export { REFUSED_CALLS_CAP } from './dashboard-limits.ts';

// ---------------------------------------------------------------------------
// Getting started (issue 34)
// ---------------------------------------------------------------------------

/** The newcomer's checklist, in its order. */
export const setupSteps = ['brand', 'offer', 'tracker', 'publishers'] as const;
export type SetupStep = (typeof setupSteps)[number];

/** GET /admin/setup-checklist: each step done or not (from the network's data), and dismissed. */
export const SetupChecklist = z.object({
  steps: z.array(z.object({ step: z.enum(setupSteps), done: z.boolean() })),
  /** This admin chose "Dismiss" (POST /admin/setup-checklist/dismiss). */
  dismissed: z.boolean(),
});
export type SetupChecklist = z.infer<typeof SetupChecklist>;
