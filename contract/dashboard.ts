import { z } from 'zod';
import { Money } from './list.ts';
import { Balance } from './money.ts';

/** The admin dashboard (issue 12, 27). */
// ---------------------------------------------------------------------------
// Stats
// ---------------------------------------------------------------------------

/** GET /admin/stats: the three dashboard cards. */
export const AdminStats = z.object({
  pending_publishers: z.number().int(),
  pending_applications: z.number().int(),
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
