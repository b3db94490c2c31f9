import '@mantine/charts/styles.css';
import type { DailyPoint } from '@contract/publisher.ts';
import { CompositeChart } from '@mantine/charts';
import { Paper, Text } from '@mantine/core';
import { leadsAndMoneySeries } from '@/components/chart-series.ts';
import { formatMoney, formatShortDay } from '@/lib/format.ts';

type TooltipProps = {
  label?: string | number;
  payload?: readonly { name?: string | number; value?: unknown }[];
};

function ChartTooltipBody({ label, payload }: TooltipProps) {
  if (!payload?.length) return null;
  const get = (name: string) => Number(payload.find((p) => p.name === name)?.value ?? 0);
  return (
    <Paper withBorder shadow="sm" p="xs" radius="md">
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Text size="sm">Leads: {get('leads')}</Text>
      <Text size="sm">Earnings: {formatMoney(get('earnings'))}</Text>
    </Paper>
  );
}

/**
 * Leads (bars, left axis) and earnings (line, right axis, $) per day: the last 30 days, or the
 * days picked above the overview (`period`).
 */
export function DailyChart({
  data,
  period = 'Last 30 days',
}: {
  data: DailyPoint[];
  period?: string;
}) {
  const rows = data.map((d) => ({ ...d, day: formatShortDay(d.date) }));
  const leads = data.reduce((n, d) => n + d.leads, 0);
  const earnings = data.reduce((n, d) => n + d.earnings, 0);
  return (
    <figure style={{ margin: 0 }}>
      <CompositeChart
        h={260}
        data={rows}
        dataKey="day"
        withLegend
        withRightYAxis
        legendProps={{ verticalAlign: 'bottom', height: 40 }}
        series={leadsAndMoneySeries('earnings', 'Earnings')}
        yAxisProps={{ allowDecimals: false, width: 36 }}
        rightYAxisProps={{
          width: 64,
          tickFormatter: (v: number) => `$${v.toLocaleString('en-US')}`,
        }}
        xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 16 }}
        tooltipProps={{ content: (p) => <ChartTooltipBody {...(p as TooltipProps)} /> }}
        // Straight segments between the (zero-filled) days, never a curve inventing values.
        curveType="linear"
        withDots={false}
        maxBarWidth={14}
      />
      <Text component="figcaption" size="sm" c="dimmed" mt="xs">
        {period}: {leads} {leads === 1 ? 'lead' : 'leads'}, {formatMoney(earnings)} earned.
      </Text>
    </figure>
  );
}
