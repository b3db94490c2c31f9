import '@mantine/charts/styles.css';
import type { DailyStats } from '@contract/admin.ts';
import { CompositeChart } from '@mantine/charts';
import { Card, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { leadsAndMoneySeries } from '@/components/chart-series.ts';
import { QueryErrorState } from '@/components/query-error-state.tsx';
import { WhenVisible } from '@/components/when-visible.tsx';
import { formatMoney, formatShortDay } from '@/lib/format.ts';

type TooltipPayload = readonly { payload?: { label: string; leads: number; payouts: number } }[];

function ChartTooltipContent({ active, payload }: { active?: boolean; payload?: TooltipPayload }) {
  const point = payload?.[0]?.payload;
  if (!active || !point) return null;
  return (
    <Paper withBorder shadow="sm" p="xs">
      <Text size="sm" fw={600}>
        {point.label}
      </Text>
      <Text size="sm" c="blue.7">
        Leads: {point.leads.toLocaleString()}
      </Text>
      <Text size="sm" c="teal.7">
        Payouts: {formatMoney(point.payouts)}
      </Text>
    </Paper>
  );
}

/**
 * Leads (bars, left axis) and payouts (line, right axis, $) per day: the last 30 days, or the
 * days picked above the dashboard (`period` says which).
 */
export function ActivityChart({
  data,
  isPending,
  error,
  onRetry,
  period = 'Last 30 days',
}: {
  period?: string;
  data: DailyStats | undefined;
  isPending: boolean;
  error: Error | null;
  onRetry: () => void;
}) {
  const points = (data?.days ?? []).map((d) => ({ ...d, label: formatShortDay(d.date) }));
  const totalLeads = points.reduce((n, d) => n + d.leads, 0);
  const totalPayouts = points.reduce((n, d) => n + d.payouts, 0);

  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" align="flex-start" mb="md" wrap="wrap">
        <Stack gap={2}>
          <Title order={2} fz="lg">
            Leads and payouts
          </Title>
          <Text size="sm" c="dimmed" data-testid="chart-period">
            {period}
          </Text>
        </Stack>
        {data ? (
          <Group gap="lg">
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                Leads
              </Text>
              <Text fw={700} data-testid="chart-leads">
                {totalLeads.toLocaleString()}
              </Text>
            </Stack>
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                Payouts
              </Text>
              <Text fw={700}>{formatMoney(totalPayouts)}</Text>
            </Stack>
          </Group>
        ) : null}
      </Group>
      {isPending ? (
        <Skeleton height={280} role="status" aria-label="Loading chart" />
      ) : error ? (
        <QueryErrorState title="Error loading statistics" error={error} onRetry={onRetry} />
      ) : (
        <WhenVisible placeholder={<Skeleton height={280} />}>
          <CompositeChart
            h={280}
            data={points}
            dataKey="label"
            withLegend
            withRightYAxis
            withDots={false}
            // Straight segments between the (zero-filled) days: a smoothed curve would draw
            // values between days that never happened.
            curveType="linear"
            maxBarWidth={18}
            yAxisLabel="Leads"
            rightYAxisLabel="Payouts ($)"
            rightYAxisProps={{ tickFormatter: (v: number) => `$${v.toLocaleString()}` }}
            yAxisProps={{ allowDecimals: false }}
            tooltipProps={{ content: ChartTooltipContent }}
            series={leadsAndMoneySeries('payouts', 'Payouts')}
            aria-label={`Chart of leads and payouts per day, ${period}`}
            role="img"
          />
        </WhenVisible>
      )}
    </Card>
  );
}
