import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';

export type ReportChartPoint = { label: string; calls: number; payable: number };

/**
 * Calls and payable calls as bars: one bar pair per day or hour (every one, quiet ones at zero),
 * or the first rows of the table for the other groupings. Bars only: nothing is drawn between
 * two points that did not happen.
 */
export function ReportChart({
  points,
  horizontal,
}: {
  points: ReportChartPoint[];
  /** Named groups (offers, states…): horizontal bars with the names on the left. */
  horizontal: boolean;
}) {
  return (
    <BarChart
      h={horizontal ? Math.max(160, points.length * 28) : 260}
      data={points}
      dataKey="label"
      orientation={horizontal ? 'vertical' : 'horizontal'}
      withLegend
      legendProps={{ verticalAlign: 'bottom', height: 36 }}
      series={[
        { name: 'calls', label: 'Calls', color: 'blue.5' },
        { name: 'payable', label: 'Payable calls', color: 'teal.6' },
      ]}
      yAxisProps={
        horizontal ? { width: 160, tickFormatter: shortName } : { allowDecimals: false, width: 40 }
      }
      xAxisProps={
        horizontal ? { allowDecimals: false } : { interval: 'preserveStartEnd', minTickGap: 16 }
      }
      maxBarWidth={18}
      role="img"
      aria-label="Chart of calls and payable calls"
    />
  );
}

/**
 * A group's name on one line of the axis: long offer names wrapped onto three lines and ran into
 * the next bar's. The table below the chart and the tooltip keep the whole name.
 */
function shortName(name: string): string {
  return name.length > 24 ? `${name.slice(0, 23).trimEnd()}…` : name;
}
