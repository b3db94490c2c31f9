import type { AdminReportFigures } from '@contract/reports.ts';
import { Text } from '@mantine/core';
import { formatCount, formatMoney } from '@/lib/format.ts';

/**
 * The margin's rule in words under the report, with what it leaves out over the whole period
 * (the totals): the payable calls that carry no revenue, and their payout.
 */
export function MarginNote({ totals }: { totals: AdminReportFigures }) {
  const n = totals.payable_without_revenue;
  const payout = formatMoney(totals.payout_without_revenue);
  const calls = `${formatCount(n)} payable ${n === 1 ? 'call' : 'calls'}`;
  let outside = '';
  if (totals.revenue === null) {
    outside = 'No call in this period carries a revenue, so there is no margin.';
  } else if (n > 0) {
    outside = `${calls} (${payout} payout) ${n === 1 ? 'has' : 'have'} no revenue and ${n === 1 ? 'is' : 'are'} not in the margin (No revenue column).`;
  } else if (totals.payable_calls > 0) {
    outside = 'Every payable call carries a revenue.';
  }
  return (
    <Text size="sm" c="dimmed" data-testid="margin-note">
      Margin = revenue − payout of the calls that carry a revenue. Revenue counts every call that
      carries one, whatever its status; payout counts payable (approved) calls. {outside}
    </Text>
  );
}
