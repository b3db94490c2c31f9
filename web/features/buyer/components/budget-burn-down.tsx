import { Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Suspense } from 'react';
import { WhenVisible } from '@/components/when-visible.tsx';
import { useBuyerDashboard } from '@/features/buyer/api/calls.ts';
import { formatDay, formatMoney } from '@/lib/format.ts';
import { lazyExport } from '@/lib/lazy-export.ts';
import { burnDown } from './burn-down.ts';

// The chart (recharts) is its own chunk: the figures show while it downloads.
const BurnDownChart = lazyExport(() => import('./burn-down-chart.tsx'), 'BurnDownChart');

/**
 * The dashboard's budget burn-down (issue 31): spend today and this month, the budget left over
 * the last 30 days and its projection at the recent pace to the campaigns' end date.
 */
export function BudgetBurnDown() {
  const dashboard = useBuyerDashboard();
  const d = dashboard.data;
  if (dashboard.isError) {
    return (
      <Text size="sm" c="red">
        Your spend could not be loaded.
      </Text>
    );
  }
  if (!d) return <Skeleton height={260} role="status" aria-label="Loading your spend" />;
  const burn = burnDown(d);
  return (
    <Card withBorder padding="lg" radius="md" data-testid="budget-burn-down">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Title order={2} size="h3">
            Budget burn-down
          </Title>
          <Text size="sm" c="dimmed">
            Today {formatMoney(d.spend_today)} · This month {formatMoney(d.spend_month)} · Spent{' '}
            {formatMoney(d.spent_total)} of{' '}
            {d.budget === null ? 'no budget' : formatMoney(d.budget)}
          </Text>
        </Group>
        {burn === null ? (
          <Text size="sm" c="dimmed">
            Your live campaigns have no budget: there is nothing to burn down.
          </Text>
        ) : (
          <>
            <Text size="sm" data-testid="burn-down-projection">
              {burn.perDay === 0
                ? 'No spend in the last 30 days: the budget stays as it is.'
                : burn.runsOutOn
                  ? `At ${formatMoney(burn.perDay)} a day the budget runs out on ${formatDay(burn.runsOutOn)}.`
                  : `At ${formatMoney(burn.perDay)} a day the budget lasts past ${formatDay(burn.until)}.`}
            </Text>
            <WhenVisible placeholder={<Skeleton height={220} />}>
              <Suspense fallback={<Skeleton height={220} />}>
                <BurnDownChart points={burn.points} />
              </Suspense>
            </WhenVisible>
          </>
        )}
      </Stack>
    </Card>
  );
}
