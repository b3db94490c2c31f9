import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import type { BurnPoint } from './burn-down.ts';

/** The budget left per day (solid) and its projection to the end date (dashed). */
export function BurnDownChart({ points }: { points: BurnPoint[] }) {
  const data = points.map((p) => ({
    day: p.day.slice(5),
    Left: p.remaining,
    Projected: p.projected,
  }));
  return (
    <LineChart
      h={220}
      data={data}
      dataKey="day"
      series={[
        { name: 'Left', color: 'blue.6' },
        { name: 'Projected', color: 'gray.6', strokeDasharray: '5 5' },
      ]}
      withDots={false}
      connectNulls={false}
      curveType="linear"
      gridAxis="y"
      tickLine="y"
      valueFormatter={(v) => `$${v.toLocaleString()}`}
    />
  );
}
