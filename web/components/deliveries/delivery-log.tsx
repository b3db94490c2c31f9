import type { Delivery, DeliveryDetail } from '@contract/outbound.ts';
import { Button, Code, Group, Modal, Stack, Text, Title } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { showFailure } from '@/components/forms/show-failure.ts';
import { QueryError } from '@/components/lists/query-error.tsx';
import { PagedTable } from '@/components/paged-table.tsx';
import { StatusBadge } from '@/components/status-badge.tsx';
import { useLocalList } from '@/components/use-list-params.ts';
import { formatDateTime } from '@/lib/format.ts';
import { toast } from '@/lib/notify.ts';
import {
  type DeliveryRoutes,
  useDeliveries,
  useDelivery,
  useReplayDelivery,
} from './deliveries-api.ts';

/** The answer in a few characters: "200", "timeout…", or "—" before any try. */
function answerOf(d: Pick<Delivery, 'last_status' | 'last_error'>): string {
  if (d.last_status !== null) return String(d.last_status);
  return d.last_error ?? '—';
}

const ms = (n: number | null) => (n === null ? '—' : `${n} ms`);

/** One delivery's tries, newest last: what was sent and what came back. */
function DeliveryDetailBody({ d }: { d: DeliveryDetail }) {
  return (
    <Stack gap="md">
      <Text size="sm">
        <b>{d.method}</b> <span style={{ overflowWrap: 'anywhere' }}>{d.url}</span>
      </Text>
      <Text size="sm" c="dimmed">
        Event {d.event_type} · id {d.event_id} (the webhook-id of every try)
      </Text>
      {d.request_body ? (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            Request body
          </Text>
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {d.request_body}
          </Code>
        </Stack>
      ) : null}
      {d.attempt_log.length === 0 ? (
        <Text size="sm" c="dimmed">
          Not tried yet.
        </Text>
      ) : (
        d.attempt_log.map((a) => (
          <Stack key={a.attempt} gap={4}>
            <Title order={3} fz="md">
              Attempt {a.attempt}: {a.status ?? a.error ?? 'no answer'} · {a.duration_ms} ms ·{' '}
              {formatDateTime(a.started_at)}
            </Title>
            {a.error && a.status !== null ? <Text size="sm">{a.error}</Text> : null}
            <Text size="sm" fw={600}>
              Request headers
            </Text>
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {Object.entries(a.request_headers)
                .map(([k, v]) => `${k}: ${v}`)
                .join('\n')}
            </Code>
            <Text size="sm" fw={600}>
              Answer body (first 2 KB)
            </Text>
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {a.response_body || '(empty)'}
            </Code>
          </Stack>
        ))
      )}
    </Stack>
  );
}

function DeliveryModal({
  routes,
  id,
  onClose,
}: {
  routes: DeliveryRoutes;
  id: string | null;
  onClose: () => void;
}) {
  const detail = useDelivery(routes, id);
  return (
    <Modal
      opened={id !== null}
      onClose={onClose}
      title="Delivery"
      size="xl"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {detail.isError ? (
        <QueryError title="The delivery could not be loaded" query={detail} />
      ) : detail.data ? (
        <DeliveryDetailBody d={detail.data} />
      ) : (
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      )}
    </Modal>
  );
}

/**
 * A delivery log (webhook endpoint or postbacks): state, event type, tries, last answer,
 * duration, time, with Details (each try's headers and answer) and Replay per delivery.
 */
export function DeliveryLog({ routes, label }: { routes: DeliveryRoutes; label: string }) {
  const list = useLocalList();
  const query = useDeliveries(routes, { page: list.page, page_size: list.pageSize });
  const replay = useReplayDelivery(routes);
  const [open, setOpen] = useState<string | null>(null);

  async function handleReplay(d: Delivery) {
    try {
      await replay.mutateAsync(d.id);
      toast({ title: 'Delivery Replayed', description: `${d.event_type} is sent again.` });
    } catch (err) {
      showFailure('Failed to replay delivery', err);
    }
  }

  const columns: DataTableColumn<Delivery>[] = [
    { accessor: 'state', title: 'Status', render: (d) => <StatusBadge status={d.state} /> },
    { accessor: 'event_type', title: 'Event' },
    { accessor: 'attempts', title: 'Attempts' },
    { accessor: 'last_status', title: 'Answer', render: answerOf },
    { accessor: 'last_duration_ms', title: 'Duration', render: (d) => ms(d.last_duration_ms) },
    { accessor: 'created_at', title: 'Time', render: (d) => formatDateTime(d.created_at) },
    {
      accessor: 'actions',
      title: 'Actions',
      textAlign: 'right',
      render: (d) => (
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button
            size="compact-sm"
            variant="default"
            onClick={() => setOpen(d.id)}
            aria-label={`Details of ${d.event_type} at ${formatDateTime(d.created_at)}`}
          >
            Details
          </Button>
          <Button
            size="compact-sm"
            variant="light"
            loading={replay.isPending && replay.variables === d.id}
            onClick={() => void handleReplay(d)}
            aria-label={`Replay ${d.event_type} at ${formatDateTime(d.created_at)}`}
          >
            Replay
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <>
      <PagedTable<Delivery>
        phoneCards
        label={label}
        columns={columns}
        list={list}
        query={query}
        minWidth={760}
        errorTitle="Error loading deliveries"
        emptyTitle="No deliveries yet."
        emptyText="Each event sent appears here with its answer, for 30 days."
      />
      <DeliveryModal routes={routes} id={open} onClose={() => setOpen(null)} />
    </>
  );
}
