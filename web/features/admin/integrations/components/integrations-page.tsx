import {
  type AdminIntegration,
  type IngestRefusal,
  REFUSAL_RETENTION_DAYS,
} from '@contract/integrations.ts';
import { presetOf } from '@contract/tracker-presets.ts';
import { Button, Code, Group, Menu, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { showFailure } from '@/components/forms/show-failure.ts';
import { KeyName } from '@/components/key-name.tsx';
import { ListPage } from '@/components/lists/list-page.tsx';
import { MoreMenu } from '@/components/more-menu.tsx';
import { PagedTable } from '@/components/paged-table.tsx';
import { StatusBadge } from '@/components/status-badge.tsx';
import { useConfirmedAction } from '@/components/use-confirmed-action.ts';
import { useListParams, useLocalList } from '@/components/use-list-params.ts';
import { useIntegrations } from '@/features/admin/integrations/api/list-integrations.ts';
import { useRefusals, useReplayRefusal } from '@/features/admin/integrations/api/refusals.ts';
import { useRevokeIntegration } from '@/features/admin/integrations/api/revoke-integration.ts';
import { formatDateTime } from '@/lib/format.ts';
import { toast } from '@/lib/notify.ts';
import { CreateIntegrationModal } from './create-integration-modal.tsx';
import { EditIntegrationModal } from './edit-integration-modal.tsx';
import { ExternalIdsModal } from './external-ids-modal.tsx';
import { KeyOnceModal } from './key-once-modal.tsx';
import { SetupInstructionsModal } from './setup-instructions.tsx';
import { ingestUrl } from './setup-urls.ts';
import { TestConsoleModal } from './test-console-modal.tsx';

/** Sortable columns and the direction of their first click. */
const sorts = { created_at: 'desc', name: 'asc', last_used_at: 'desc' } as const;

/** What was sent, in one line: the parameters of the query and body, the key left out. */
function requestSummary(r: IngestRefusal): string {
  const body = r.body && typeof r.body === 'object' ? (r.body as Record<string, unknown>) : {};
  const params = { ...r.query, ...body };
  const text = Object.entries(params)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('&');
  return `${r.method} ${text || '(no parameters)'}`;
}

/**
 * /admin/integrations: call trackers with their keys (shown once at creation), tracker account,
 * setup instructions, mapping, test console and tracker ids; below, the calls the endpoint
 * refused, each replayable.
 */
export function IntegrationsPage() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts });
  const query = useIntegrations({
    sort: list.sort,
    order: list.order,
    page: list.page,
    page_size: list.pageSize,
  });
  const refusalList = useLocalList();
  const refusals = useRefusals({ page: refusalList.page, page_size: refusalList.pageSize });
  const revoke = useRevokeIntegration();
  const replay = useReplayRefusal();

  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<AdminIntegration | null>(null);
  const [setupFor, setSetupFor] = useState<AdminIntegration | null>(null);
  const [testing, setTesting] = useState<AdminIntegration | null>(null);
  const [created, setCreated] = useState<{ integration: AdminIntegration; key: string } | null>(
    null,
  );
  const [idsFor, setIdsFor] = useState<AdminIntegration | null>(null);
  const [revoking, setRevoking, revokeDialog] = useConfirmedAction(
    (i: AdminIntegration) => revoke.mutateAsync(i.id),
    (i) => ({ title: 'Key Revoked', description: `${i.name} can no longer post calls.` }),
    'Failed to revoke key',
  );

  async function handleReplay(r: IngestRefusal) {
    try {
      const lead = await replay.mutateAsync(r.id);
      toast({
        title: 'Call Replayed',
        description: `Lead ${lead.id.slice(0, 8)} is ${lead.status}.`,
      });
    } catch (err) {
      showFailure('Replay refused', err);
    }
  }

  const columns: DataTableColumn<AdminIntegration>[] = [
    {
      accessor: 'name',
      title: 'Name',
      sortable: true,
      render: (i) => (
        <Stack gap={2}>
          <KeyName name={i.name} prefix={i.key_prefix} />
        </Stack>
      ),
    },
    {
      accessor: 'tracker',
      title: 'Tracker',
      render: (i) => (
        <Stack gap={2} maw={240}>
          <Text size="sm">{presetOf(i.tracker).label}</Text>
          {i.account_id ? (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              Account{' '}
              <Text span inherit ff="monospace">
                {i.account_id}
              </Text>
            </Text>
          ) : null}
          {i.shares_calls_with.length > 0 ? (
            <Text size="xs" c="dimmed">
              Shares calls with {i.shares_calls_with.map((s) => s.name).join(', ')}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      accessor: 'revoked_at',
      title: 'Key',
      render: (i) =>
        i.revoked_at ? (
          <Tooltip label={`Revoked ${formatDateTime(i.revoked_at)}`}>
            <span>
              <StatusBadge status="blocked">Revoked</StatusBadge>
            </span>
          </Tooltip>
        ) : (
          <StatusBadge status="active" />
        ),
    },
    {
      accessor: 'allowed_ips',
      title: 'Allowed sources',
      render: (i) =>
        i.allowed_ips.length === 0 ? (
          <Text size="sm" c="dimmed">
            Any
          </Text>
        ) : (
          <Text size="sm" ff="monospace" lineClamp={2} maw={220}>
            {i.allowed_ips.join(', ')}
          </Text>
        ),
    },
    {
      accessor: 'last_used_at',
      title: 'Last used',
      sortable: true,
      render: (i) => (i.last_used_at ? formatDateTime(i.last_used_at) : 'Never'),
    },
    {
      accessor: 'accepted_count',
      title: 'Calls',
      textAlign: 'right',
      render: (i) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {i.accepted_count.toLocaleString()} accepted
          {i.refused_count > 0 ? ` · ${i.refused_count.toLocaleString()} refused` : ''}
        </Text>
      ),
    },
    {
      accessor: 'id',
      title: 'Actions',
      textAlign: 'right',
      width: 90,
      render: (i) => (
        <MoreMenu label={`Actions for ${i.name}`}>
          <Menu.Item onClick={() => setSetupFor(i)}>How to connect</Menu.Item>
          <Menu.Item onClick={() => setTesting(i)}>Test</Menu.Item>
          <Menu.Item onClick={() => setEditing(i)}>Edit</Menu.Item>
          <Menu.Item onClick={() => setIdsFor(i)}>Tracker ids</Menu.Item>
          <Menu.Item color="red" disabled={Boolean(i.revoked_at)} onClick={() => setRevoking(i)}>
            Revoke key
          </Menu.Item>
        </MoreMenu>
      ),
    },
  ];

  const refusalColumns: DataTableColumn<IngestRefusal>[] = [
    {
      accessor: 'created_at',
      title: 'When',
      width: 170,
      render: (r) => formatDateTime(r.created_at),
    },
    {
      accessor: 'integration_name',
      title: 'Integration',
      render: (r) =>
        r.integration_name ?? (
          <Text size="sm" c="dimmed">
            No valid key
          </Text>
        ),
    },
    {
      accessor: 'reason',
      title: 'Why',
      render: (r) => (
        <Stack gap={2} maw={420} miw={200}>
          <Text size="sm">
            <Code>{r.http_status}</Code> {r.reason}
          </Text>
          <Text
            size="xs"
            c="dimmed"
            ff="monospace"
            lineClamp={2}
            style={{ wordBreak: 'break-all' }}
          >
            {requestSummary(r)}
          </Text>
        </Stack>
      ),
    },
    {
      accessor: 'id',
      title: 'Replay',
      textAlign: 'right',
      render: (r) =>
        r.replayed_at ? (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            Replayed
          </Text>
        ) : (
          <Button
            size="compact-sm"
            variant="light"
            disabled={!r.integration_id}
            loading={replay.isPending && replay.variables === r.id}
            onClick={() => handleReplay(r)}
          >
            Replay
          </Button>
        ),
    },
  ];

  return (
    <ListPage<AdminIntegration>
      title="Integrations"
      description={
        <>
          Call trackers post calls to <Code>{ingestUrl()}</Code> with their key.
        </>
      }
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          New Integration
        </Button>
      }
      columns={columns}
      list={list}
      query={query}
      empty="No integrations yet."
      emptyText="Create one for each call tracker account that sends you calls."
    >
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={2} fz="lg" id="refused-calls">
            Refused calls
          </Title>
          <Text size="sm" c="dimmed">
            Kept {REFUSAL_RETENTION_DAYS} days. Fix the mapping (tracker ids, field rules), then
            replay.
          </Text>
        </Stack>
      </Group>
      <PagedTable<IngestRefusal>
        label="Refused calls"
        columns={refusalColumns}
        list={refusalList}
        query={refusals}
        phoneCards
        errorTitle="Error loading refused calls"
        emptyTitle="No refused calls."
      />
      <CreateIntegrationModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(c) => {
          setCreating(false);
          setCreated(c);
        }}
      />
      {editing ? (
        <EditIntegrationModal integration={editing} onClose={() => setEditing(null)} />
      ) : null}
      {setupFor ? (
        <SetupInstructionsModal integration={setupFor} onClose={() => setSetupFor(null)} />
      ) : null}
      {testing ? <TestConsoleModal integration={testing} onClose={() => setTesting(null)} /> : null}
      <KeyOnceModal created={created} onClose={() => setCreated(null)} />
      {idsFor ? <ExternalIdsModal integration={idsFor} onClose={() => setIdsFor(null)} /> : null}
      <ConfirmDialog {...revokeDialog} title="Revoke key" confirmLabel="Revoke key">
        Calls sent with the key of <b>{revoking?.name}</b> will be refused from now on. This cannot
        be undone; create a new integration for a new key.
      </ConfirmDialog>
    </ListPage>
  );
}
