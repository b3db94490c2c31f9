import type { LiveCounters } from '@contract/live.ts';
import { Badge, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { StatCard } from '@/components/stat-card.tsx';
import { formatMoney } from '@/lib/format.ts';
import { type LiveStatus, useLiveStream } from '@/lib/live-stream.ts';

const statusText: Record<LiveStatus, { label: string; color: string }> = {
  connecting: { label: 'Connecting…', color: 'gray' },
  live: { label: 'Live', color: 'green' },
  offline: { label: 'Reconnecting…', color: 'yellow' },
  ended: { label: 'Not live: sign in again', color: 'red' },
};

/** Whether the screen's figures are live now (a badge beside a title). */
export function LiveBadge({ status }: { status: LiveStatus }) {
  const s = statusText[status];
  return (
    <Badge variant="dot" color={s.color} data-testid="live-status">
      {s.label}
    </Badge>
  );
}

/**
 * Shared: today's counters of the live stream (Admin → Live, the publisher's overview, the
 * buyer's dashboard): calls today, in progress, payable, payout and (the admin's) revenue.
 */
export function LiveCounterCards({
  counters,
  payoutLabel = 'Payout today',
}: {
  counters: LiveCounters | null;
  /** A buyer's stream counts what their calls billed: "Spend today". */
  payoutLabel?: string;
}) {
  const loading = counters === null;
  const revenue = counters?.revenue_today ?? null;
  return (
    <SimpleGrid cols={{ base: 2, sm: revenue === null ? 4 : 5 }} data-testid="live-counters">
      <StatCard label="Calls today" value={String(counters?.calls_today ?? 0)} loading={loading} />
      <StatCard label="In progress" value={String(counters?.in_progress ?? 0)} loading={loading} />
      <StatCard
        label="Payable today"
        value={String(counters?.payable_today ?? 0)}
        loading={loading}
      />
      <StatCard
        label={payoutLabel}
        value={formatMoney(counters?.payout_today ?? 0)}
        loading={loading}
      />
      {revenue !== null ? (
        <StatCard label="Revenue today" value={formatMoney(revenue)} loading={loading} />
      ) : null}
    </SimpleGrid>
  );
}

/**
 * Shared: "Today, live" on the publisher's overview and the buyer's dashboard: the counters of
 * the user's own calls, updated as the calls arrive (`note` says what they cover).
 */
export function LiveTodayPanel({ note, payoutLabel }: { note?: string; payoutLabel?: string }) {
  const live = useLiveStream();
  return (
    <Stack gap="xs" component="section" aria-label="Today, live">
      <Group gap="sm">
        <Title order={2} fz="lg">
          Today, live
        </Title>
        <LiveBadge status={live.status} />
      </Group>
      {note ? (
        <Text size="sm" c="dimmed">
          {note}
        </Text>
      ) : null}
      <LiveCounterCards counters={live.counters} payoutLabel={payoutLabel} />
    </Stack>
  );
}
