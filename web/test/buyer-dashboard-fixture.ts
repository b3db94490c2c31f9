import type { BuyerDashboard } from '@contract/buyer-calls.ts';

/**
 * A buyer's dashboard answer for the burn-down tests: a $1,000 budget, $300 spent over the last
 * three days ($100 a day), ending 2026-12-31; no calls or spend of today.
 */
export const threeDaysOfSpend: BuyerDashboard = {
  spend_today: 0,
  spend_month: 0,
  budget: 1000,
  spent_total: 300,
  calls_delivered: 0,
  calls_billable: 0,
  avg_duration_seconds: null,
  today: '2026-11-27',
  end_date: '2026-12-31',
  days: [
    { day: '2026-11-25', spent: 100, calls: 4 },
    { day: '2026-11-26', spent: 100.1, calls: 4 },
    { day: '2026-11-27', spent: 99.9, calls: 4 },
  ],
};
