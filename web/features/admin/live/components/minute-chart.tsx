import '@mantine/charts/styles.css';
import type { LiveCounters } from '@contract/live.ts';
import { BarChart } from '@mantine/charts';

/** Calls per minute over the last hour (the live stream's counters), oldest on the left. */
export function MinuteChart({ perMinute }: { perMinute: LiveCounters['per_minute'] }) {
  const data = perMinute.map((m) => ({
    minute: new Date(m.minute).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }),
    Calls: m.calls,
  }));
  return (
    <BarChart
      h={180}
      data={data}
      dataKey="minute"
      series={[{ name: 'Calls', color: 'blue.6' }]}
      tickLine="y"
      gridAxis="y"
      xAxisProps={{ interval: 9 }}
      yAxisProps={{ allowDecimals: false }}
    />
  );
}
