import type { LiveLead } from '@contract/live.ts';
import { Anchor, Card, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { Suspense } from 'react';
import { Link } from 'react-router';
import { adminPaths } from '@/app/routes.ts';
import { LiveBadge, LiveCounterCards } from '@/components/live/live-counters.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { ScrollTable } from '@/components/scroll-table.tsx';
import { StatusBadge } from '@/components/status-badge.tsx';
import { formatDateTime, formatMoney, formatSeconds } from '@/lib/format.ts';
import { lazyExport } from '@/lib/lazy-export.ts';
import { useLiveStream } from '@/lib/live-stream.ts';
import { formatPhone } from '@/lib/phone-format.ts';

// The chart (recharts) is its own chunk: the counters and the calls show while it downloads.
const MinuteChart = lazyExport(() => import('./minute-chart.tsx'), 'MinuteChart');

const eventLabel: Record<string, string> = {
  incoming: 'Ringing',
  connected: 'Talking',
  error: 'Error',
  completed: 'Completed',
  converted: 'Converted',
  payout: 'Paid event',
};

function CallRow({ call }: { call: LiveLead }) {
  return (
    <Table.Tr data-testid="live-call" data-call-id={call.id}>
      <Table.Td>{formatDateTime(call.timestamp)}</Table.Td>
      <Table.Td>
        <Anchor component={Link} to={adminPaths.lead(call.id)}>
          {call.caller ? formatPhone(call.caller) : 'Unknown caller'}
        </Anchor>
      </Table.Td>
      <Table.Td>{call.publisher_name ?? '—'}</Table.Td>
      <Table.Td>{call.offer_title}</Table.Td>
      <Table.Td data-testid="live-call-event">
        {call.in_progress ? (
          <Text span c="blue.7" fw={600}>
            {eventLabel[call.last_event ?? ''] ?? 'In progress'}
          </Text>
        ) : (
          (eventLabel[call.last_event ?? ''] ?? call.last_event ?? '—')
        )}
      </Table.Td>
      <Table.Td ta="right">{formatSeconds(call.duration_seconds)}</Table.Td>
      <Table.Td>
        <StatusBadge status={call.status} subject="lead" />
      </Table.Td>
      <Table.Td ta="right">{formatMoney(call.payout)}</Table.Td>
    </Table.Tr>
  );
}

const heads = [
  'Time',
  'Caller',
  'Publisher',
  'Offer',
  'Call',
  { label: 'Length', right: true },
  'Status',
  { label: 'Payout', right: true },
] as const;

function CallsCard({ title, calls, empty }: { title: string; calls: LiveLead[]; empty: string }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Title order={2} fz="lg" mb="md">
        {title} ({calls.length})
      </Title>
      <ScrollTable count={calls.length} empty={empty} minWidth={820} heads={[...heads]} striped>
        {calls.map((c) => (
          <CallRow key={c.id} call={c} />
        ))}
      </ScrollTable>
    </Card>
  );
}

/**
 * Admin → Live (issue 32): the network's calls as they happen, from the live stream: today's
 * counters, calls per minute over the last hour, the calls ringing or talking now and the last
 * 100 calls, each updated in place (a call posted by a tracker shows within a second or two).
 */
export function LivePage() {
  const live = useLiveStream();
  const inProgress = live.calls.filter((c) => c.in_progress);
  return (
    <Stack gap="lg">
      <PageHeader
        title="Live"
        description="Calls as they happen: ringing and talking now, and the last 100 of today."
      />
      <Group>
        <LiveBadge status={live.status} />
      </Group>
      <LiveCounterCards counters={live.counters} />
      <Card withBorder padding="lg" component="section" aria-label="Calls per minute">
        <Title order={2} fz="lg" mb="md">
          Calls per minute, last hour
        </Title>
        <Suspense fallback={<Skeleton height={180} role="status" aria-label="Loading chart" />}>
          {live.counters ? (
            <MinuteChart perMinute={live.counters.per_minute} />
          ) : (
            <Skeleton height={180} />
          )}
        </Suspense>
      </Card>
      <CallsCard
        title="Calls in progress"
        calls={inProgress}
        empty="No call is ringing or talking now."
      />
      <CallsCard title="Last calls" calls={live.calls} empty="No calls yet today." />
    </Stack>
  );
}
