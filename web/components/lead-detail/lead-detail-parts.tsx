import type { LeadDispute, LeadHistoryEntry, LeadTimelineEntry } from '@contract/lead-detail.ts';
import { Alert, Anchor, Card, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import {
  IconArrowLeft,
  IconExternalLink,
  IconInfoCircle,
  IconPaperclip,
} from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DetailSkeleton, useDetailGate } from '@/components/detail-gate.tsx';
import { ReviewField } from '@/components/forms/review-modal.tsx';
import { HistoryTable } from '@/components/history-table.tsx';
import { ScrollTable } from '@/components/scroll-table.tsx';
import { StatusBadge } from '@/components/status-badge.tsx';
import { formatDateTime, formatSeconds } from '@/lib/format.ts';
import { LeadPayout } from './lead-payout.tsx';

/**
 * The pieces of a lead's detail screen (issue 13), shared by the admin's and the publisher's
 * screens: each area composes them with its own data and actions.
 */

export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Anchor component={Link} to={to} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} />
        {label}
      </Group>
    </Anchor>
  );
}

/** A labelled value; an empty one shows '—'. */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <ReviewField label={label} gap={0}>
      {children === null || children === undefined || children === '' ? '—' : children}
    </ReviewField>
  );
}

/** A titled card of the detail screen. */
export function Section({
  title,
  children,
  actions,
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Group justify="space-between" mb="md" wrap="wrap" gap="xs">
        <Title order={2} fz="lg">
          {title}
        </Title>
        {actions}
      </Group>
      {children}
    </Card>
  );
}

/**
 * What a lead detail screen (admin or publisher) shows until its lead is there: the skeleton,
 * "Lead not found" (400/404), or the error with Retry (and its toast); null once loaded.
 */
export function useLeadDetailGate(query: UseQueryResult<unknown>, back: ReactNode): ReactNode {
  return useDetailGate(query, {
    back,
    skeleton: <DetailSkeleton label="Loading the lead" cardHeight={110} below={[90, 220]} />,
    errorTitle: 'Error loading leads',
    notFoundTitle: 'Lead not found',
    notFoundText: 'This lead does not exist, or it is not one of yours.',
  });
}

/** The header: offer, status, when and whose. */
export function LeadHeader({
  offerTitle,
  status,
  timestamp,
  subtitle,
}: {
  offerTitle: string;
  status: string;
  timestamp: string;
  subtitle?: ReactNode;
}) {
  return (
    <Stack gap={4}>
      <Group gap="sm" wrap="wrap">
        <Title order={1} fz={{ base: 24, sm: 28 }} style={{ overflowWrap: 'anywhere' }}>
          {offerTitle}
        </Title>
        <StatusBadge status={status} subject="lead" />
      </Group>
      <Text c="dimmed" size="sm">
        Call of {formatDateTime(timestamp)}
        {subtitle ? <> · {subtitle}</> : null}
      </Text>
    </Stack>
  );
}

/** Why the lead has its status, in the words the server recorded. */
export function StatusReason({ status, reason }: { status: string; reason: string | null }) {
  if (!reason) return null;
  const color = status === 'approved' ? 'green' : status === 'rejected' ? 'red' : 'yellow';
  return (
    <Alert
      variant="light"
      color={color}
      icon={<IconInfoCircle size={18} />}
      title="Status reason"
      // The light variant's coloured title is under 4.5:1 on its tint (green 3.8:1): dark text.
      styles={{ title: { color: 'var(--mantine-color-black)' } }}
    >
      <Text size="sm">{reason}</Text>
    </Alert>
  );
}

/** Duration as m:ss against the offer's billable buffer, when the offer has one. */
export function DurationVsBuffer({
  seconds,
  minutes,
  buffer,
}: {
  seconds: number | null;
  minutes: number;
  buffer: number | null;
}) {
  const shown = seconds ?? minutes * 60;
  const billable = buffer === null ? null : shown >= buffer;
  return (
    <Stack gap={4}>
      <Text fz={28} fw={700} lh={1.1} data-testid="lead-duration">
        {seconds === null ? `${minutes} min` : formatSeconds(seconds)}
      </Text>
      {buffer === null ? (
        <Text size="xs" c="dimmed">
          The offer sets no billable buffer.
        </Text>
      ) : (
        <Group gap={6}>
          <Text size="sm" c="dimmed">
            Buffer {formatSeconds(buffer)}
          </Text>
          <StatusBadge status={billable ? 'approved' : 'rejected'}>
            {billable ? 'Over the buffer' : 'Under the buffer'}
          </StatusBadge>
        </Group>
      )}
    </Stack>
  );
}

/**
 * The call's recording played in the page: a file kept by the portal through its signed URL,
 * or the tracker's own link.
 */
export function RecordingPlayer({
  recording,
}: {
  recording: { url: string; stored: boolean } | null;
}) {
  if (!recording) {
    return (
      <Text size="sm" c="dimmed">
        No recording for this call.
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      {/* biome-ignore lint/a11y/useMediaCaption: a phone call recording has no caption track */}
      <audio
        controls
        preload="metadata"
        src={recording.url}
        style={{ width: '100%' }}
        aria-label="Call recording"
        data-testid="lead-recording"
      />
      <Anchor href={recording.url} target="_blank" rel="noopener noreferrer" size="sm">
        <Group gap={4}>
          <IconExternalLink size={14} />
          {recording.stored ? 'Download the recording' : 'Open the recording on the tracker'}
        </Group>
      </Anchor>
    </Stack>
  );
}

const eventLabels: Record<string, string> = {
  incoming: 'Incoming',
  error: 'Error',
  connected: 'Connected',
  completed: 'Completed',
  converted: 'Converted',
  payout: 'Payout',
};

/** Each tracker event received and each change of status or payout, oldest first. */
export function LeadTimeline({ items }: { items: LeadTimelineEntry[] }) {
  return (
    <ScrollTable
      count={items.length}
      empty="No tracker events: this lead was recorded by hand."
      minWidth={560}
      heads={[
        'When',
        'Event',
        'Status',
        { label: 'Duration', right: true },
        { label: 'Payout', right: true },
      ]}
      striped
    >
      {items.map((e, i) => {
        const prev = items[i - 1];
        return (
          <Table.Tr key={e.id}>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.created_at)}</Table.Td>
            <Table.Td>
              {e.event ? (eventLabels[e.event] ?? e.event) : <Text size="sm">Changed</Text>}
              {e.status_reason && e.status_reason !== prev?.status_reason ? (
                <Text size="xs" c="dimmed">
                  {e.status_reason}
                </Text>
              ) : null}
            </Table.Td>
            <Table.Td>
              <StatusBadge status={e.status} subject="lead" />
            </Table.Td>
            <Table.Td ta="right">{formatSeconds(e.duration_seconds)}</Table.Td>
            <Table.Td ta="right">
              <LeadPayout payout={e.payout} status={e.status} />
            </Table.Td>
          </Table.Tr>
        );
      })}
    </ScrollTable>
  );
}

const actionLabels: Record<string, string> = {
  'lead.create': 'Recorded',
  'lead.status': 'Status changed',
  'lead.recording': 'Recording stored',
  'dispute.open': 'Dispute opened',
  'dispute.accept': 'Dispute accepted',
  'dispute.decline': 'Dispute declined',
};

/** The audit entries of the lead, newest first. */
export function LeadHistory({ items }: { items: LeadHistoryEntry[] }) {
  return (
    <HistoryTable
      items={items}
      actionLabels={actionLabels}
      by={(e) => e.by}
      change={(e) =>
        e.changes.map((c) => `${c.field.replaceAll('_', ' ')}: ${c.before} → ${c.after}`).join('; ')
      }
    />
  );
}

/** A dispute's status as a pill in the lead statuses' colours (open waits, accepted pays). */
export function DisputeStatusBadge({ status }: { status: string }) {
  const look: Record<string, { as: string; label: string }> = {
    open: { as: 'pending', label: 'Open' },
    accepted: { as: 'approved', label: 'Accepted' },
    declined: { as: 'rejected', label: 'Declined' },
  };
  const l = look[status] ?? { as: status, label: status };
  return (
    <span data-dispute-status={status} style={{ display: 'inline-flex' }}>
      <StatusBadge status={l.as}>{l.label}</StatusBadge>
    </span>
  );
}

/** A dispute's messages, oldest first; `footer` holds the reply box and decisions. */
export function DisputeThread({ dispute, footer }: { dispute: LeadDispute; footer?: ReactNode }) {
  return (
    <Stack gap="sm" data-testid="dispute-thread">
      <Group gap="xs">
        <Text size="sm" fw={600}>
          Dispute of {formatDateTime(dispute.created_at)}
        </Text>
        <DisputeStatusBadge status={dispute.status} />
        {dispute.decided_at ? (
          <Text size="xs" c="dimmed">
            decided {formatDateTime(dispute.decided_at)}
          </Text>
        ) : null}
      </Group>
      {dispute.messages.map((m) => (
        <Paper
          key={m.id}
          withBorder
          p="sm"
          radius="md"
          bg={m.author === 'admin' ? 'var(--mantine-color-blue-light)' : undefined}
          ml={m.author === 'admin' ? { base: 0, sm: 'xl' } : 0}
          mr={m.author === 'publisher' ? { base: 0, sm: 'xl' } : 0}
        >
          <Group justify="space-between" gap="xs" mb={4} wrap="wrap">
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {m.author_name}
            </Text>
            <Text size="xs" c="dimmed">
              {formatDateTime(m.created_at)}
            </Text>
          </Group>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {m.body}
          </Text>
          {m.file ? (
            <Anchor href={m.file.url} target="_blank" rel="noopener" size="sm" mt={6}>
              <Group gap={4}>
                <IconPaperclip size={14} />
                {m.file.name}
              </Group>
            </Anchor>
          ) : null}
        </Paper>
      ))}
      {footer}
    </Stack>
  );
}
