import type { WebhookEndpoint, WebhookEndpointWithSecret } from '@contract/outbound.ts';
import { Badge, Button, Card, Group, Menu, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { CodeBadges } from '@/components/code-badges.tsx';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { CopyField } from '@/components/copy-field.tsx';
import { CopyOnceModal } from '@/components/copy-once-modal.tsx';
import { DeliveryLog } from '@/components/deliveries/delivery-log.tsx';
import { DimmedNote } from '@/components/dimmed-note.tsx';
import { showFailure } from '@/components/forms/show-failure.ts';
import { MoreMenu } from '@/components/more-menu.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { QueryCard } from '@/components/query-card.tsx';
import { ScrollTable } from '@/components/scroll-table.tsx';
import {
  endpointDeliveries,
  useDeleteWebhook,
  useRotateWebhookSecret,
  useTestWebhook,
  useUpdateWebhook,
  useWebhooks,
} from '@/features/admin/webhooks/api/webhooks.ts';
import { formatDateTime } from '@/lib/format.ts';
import { toast } from '@/lib/notify.ts';
import { CreateWebhookModal } from './create-webhook-modal.tsx';

/** The secret of a new or rotated endpoint, once. */
function SecretOnceModal({
  shown,
  onClose,
}: {
  shown: { endpoint: WebhookEndpointWithSecret; rotated: boolean } | null;
  onClose: () => void;
}) {
  return (
    <CopyOnceModal
      shown={shown}
      onClose={onClose}
      title={() => 'Signing secret'}
      warning={(s) => (
        <>
          It will not be shown again. The receiver verifies each request&apos;s webhook-signature
          with it (any Standard Webhooks library does).
          {s.rotated
            ? ' The previous secret keeps signing too for 24 hours, so the receiver can switch over.'
            : ''}
        </>
      )}
      doneLabel="I have copied the secret"
    >
      {(s) => (
        <>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {s.endpoint.url}
          </Text>
          <CopyField label="Secret" value={s.endpoint.secret} copyLabel="Copy secret" />
        </>
      )}
    </CopyOnceModal>
  );
}

function StateBadge({ e }: { e: WebhookEndpoint }) {
  if (!e.enabled)
    return (
      <Badge color="gray" variant="light">
        Disabled
      </Badge>
    );
  if (e.paused_at)
    return (
      <Stack gap={2}>
        <Badge color="red" variant="light">
          Paused
        </Badge>
        <Text size="xs" c="dimmed">
          A day of failed deliveries since {formatDateTime(e.failing_since ?? e.paused_at)}; enable
          to resume.
        </Text>
      </Stack>
    );
  return (
    <Badge color="green" variant="light">
      Enabled
    </Badge>
  );
}

type Confirm = { kind: 'delete' | 'rotate'; endpoint: WebhookEndpoint } | null;

type RowProps = {
  e: WebhookEndpoint;
  selected: boolean;
  onLog: () => void;
  onToggle: () => void;
  onTest: () => void;
  onConfirm: (c: NonNullable<Confirm>) => void;
};

function EndpointActions({ e, onLog, onToggle, onTest, onConfirm }: Omit<RowProps, 'selected'>) {
  return (
    <Group gap="xs" justify="flex-end" wrap="nowrap">
      <Button size="compact-sm" variant="default" onClick={onLog}>
        Deliveries
      </Button>
      <MoreMenu label={`More for ${e.url}`}>
        <Menu.Item onClick={onToggle}>{e.enabled && !e.paused_at ? 'Disable' : 'Enable'}</Menu.Item>
        <Menu.Item onClick={onTest}>Send test event</Menu.Item>
        <Menu.Item onClick={() => onConfirm({ kind: 'rotate', endpoint: e })}>
          Rotate secret
        </Menu.Item>
        <Menu.Item color="red" onClick={() => onConfirm({ kind: 'delete', endpoint: e })}>
          Delete
        </Menu.Item>
      </MoreMenu>
    </Group>
  );
}

function EndpointName({ e }: { e: WebhookEndpoint }) {
  return (
    <>
      <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
        {e.url}
      </Text>
      <DimmedNote>{e.description}</DimmedNote>
    </>
  );
}

/** A phone's card of an endpoint: the same facts and actions as a row. */
function EndpointCard(props: RowProps) {
  const { e, selected } = props;
  return (
    <Card withBorder padding="sm" bg={selected ? 'var(--mantine-color-blue-light)' : undefined}>
      <Stack gap="xs">
        <EndpointName e={e} />
        <CodeBadges names={e.events} />
        <Group justify="space-between">
          <StateBadge e={e} />
          <Text size="xs" c="dimmed">
            {formatDateTime(e.created_at)}
          </Text>
        </Group>
        <EndpointActions {...props} />
      </Stack>
    </Card>
  );
}

function EndpointRow(props: RowProps) {
  const { e, selected } = props;
  return (
    <Table.Tr bg={selected ? 'var(--mantine-color-blue-light)' : undefined}>
      <Table.Td maw={320}>
        <EndpointName e={e} />
      </Table.Td>
      <Table.Td>
        <CodeBadges names={e.events} />
      </Table.Td>
      <Table.Td miw={110}>
        <StateBadge e={e} />
      </Table.Td>
      <Table.Td>{formatDateTime(e.created_at)}</Table.Td>
      <Table.Td ta="right">
        <EndpointActions {...props} />
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * Admin → Webhooks: the endpoints the portal signs its events to (Standard Webhooks), Create
 * (the secret shown once), Enable/Disable, Send test event, Rotate secret, Delete, and an endpoint's delivery log.
 */
export function WebhooksPage() {
  const endpoints = useWebhooks();
  const isPhone = useMediaQuery('(max-width: 48em)');
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const rotate = useRotateWebhookSecret();
  const test = useTestWebhook();
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{
    endpoint: WebhookEndpointWithSecret;
    rotated: boolean;
  } | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [logOf, setLogOf] = useState<WebhookEndpoint | null>(null);

  const rowProps = (e: WebhookEndpoint): RowProps => ({
    e,
    selected: logOf?.id === e.id,
    onLog: () => setLogOf(e),
    onToggle: () => void toggle(e),
    onTest: () => void sendTest(e),
    onConfirm: setConfirm,
  });

  /** A signed sample of the endpoint's first event type; the answer in a toast. */
  async function sendTest(e: WebhookEndpoint) {
    const event = e.events[0];
    if (!event) return;
    try {
      const a = await test.mutateAsync({ id: e.id, body: { event } });
      const ok = a.status !== null && a.status >= 200 && a.status < 300;
      toast({
        title: ok ? 'Test Delivered' : 'Test Failed',
        description:
          a.error ?? `${e.url} answered ${a.status} to a sample ${event} in ${a.duration_ms} ms.`,
        variant: ok ? 'default' : 'destructive',
      });
    } catch (err) {
      showFailure('Failed to send test', err);
    }
  }

  async function toggle(e: WebhookEndpoint) {
    const enabled = !(e.enabled && !e.paused_at);
    try {
      await update.mutateAsync({ id: e.id, body: { enabled } });
      toast({ title: enabled ? 'Endpoint Enabled' : 'Endpoint Disabled', description: e.url });
    } catch (err) {
      showFailure('Failed to change endpoint', err);
    }
  }

  async function handleConfirm() {
    if (!confirm) return;
    const { kind, endpoint } = confirm;
    try {
      if (kind === 'delete') {
        await remove.mutateAsync(endpoint.id);
        if (logOf?.id === endpoint.id) setLogOf(null);
        toast({ title: 'Endpoint Deleted', description: endpoint.url });
      } else {
        setSecret({ endpoint: await rotate.mutateAsync(endpoint.id), rotated: true });
      }
      setConfirm(null);
    } catch (err) {
      showFailure(kind === 'delete' ? 'Failed to delete endpoint' : 'Failed to rotate secret', err);
    }
  }

  return (
    <Stack gap="lg">
      <PageHeader
        title="Webhooks"
        description="Endpoints that receive the portal's events as signed JSON (Standard Webhooks), retried for 24 hours."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            Add Endpoint
          </Button>
        }
      />
      <QueryCard query={endpoints} errorTitle="Webhook endpoints could not be loaded">
        {(data) =>
          isPhone && data.items.length ? (
            <Stack gap="sm">
              {data.items.map((e) => (
                <EndpointCard key={e.id} {...rowProps(e)} />
              ))}
            </Stack>
          ) : (
            <ScrollTable
              count={data.items.length}
              empty="No webhook endpoints yet. Add one to receive events in your CRM, billing or chat."
              minWidth={860}
              heads={['URL', 'Events', 'State', 'Created', { label: '', right: true }]}
            >
              {data.items.map((e) => (
                <EndpointRow key={e.id} {...rowProps(e)} />
              ))}
            </ScrollTable>
          )
        }
      </QueryCard>
      {logOf ? (
        <Stack gap="sm">
          <Title order={2} fz="lg" style={{ overflowWrap: 'anywhere' }}>
            Deliveries to {logOf.url}
          </Title>
          <DeliveryLog
            key={logOf.id}
            routes={endpointDeliveries(logOf.id)}
            label={`Deliveries to ${logOf.url}`}
          />
        </Stack>
      ) : null}
      <CreateWebhookModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(endpoint) => {
          setCreating(false);
          setSecret({ endpoint, rotated: false });
        }}
      />
      <SecretOnceModal shown={secret} onClose={() => setSecret(null)} />
      <ConfirmDialog
        opened={confirm !== null}
        title={confirm?.kind === 'delete' ? 'Delete endpoint?' : 'Rotate secret?'}
        confirmLabel={confirm?.kind === 'delete' ? 'Delete Endpoint' : 'Rotate Secret'}
        color={confirm?.kind === 'delete' ? 'red' : 'blue'}
        pending={remove.isPending || rotate.isPending}
        onConfirm={() => void handleConfirm()}
        onCancel={() => setConfirm(null)}
      >
        {confirm?.kind === 'delete'
          ? `${confirm.endpoint.url} stops receiving events, and its pending deliveries are dropped. This cannot be undone.`
          : confirm
            ? 'A new secret is made and shown once. The old one keeps working for 24 hours, so the receiver can switch over.'
            : null}
      </ConfirmDialog>
    </Stack>
  );
}
