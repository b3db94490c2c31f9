import type { FraudFlag } from '@contract/fraud.ts';
import { fraudFlagStatuses, fraudRuleNames } from '@contract/fraud.ts';
import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { Link } from 'react-router';
import { adminPaths } from '@/app/routes.ts';
import { ListFilters } from '@/components/list-filters.tsx';
import { ListPublisherFilter, ListSelect } from '@/components/lists/list-filter-fields.tsx';
import { NoteDialog } from '@/components/note-dialog.tsx';
import { PagedTable } from '@/components/paged-table.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import { useClearFlags, useConfirmFlags, useFraudFlags } from '@/features/admin/fraud/api/fraud.ts';
import { formatDateTime } from '@/lib/format.ts';
import { fraudRuleLabels } from '@/lib/fraud-routes.ts';
import { failedToast, toast } from '@/lib/notify.ts';
import { formatPhone } from '@/lib/phone-format.ts';

const sorts = { created_at: 'desc' } as const;
const filterNames = ['status', 'rule', 'publisher_id'] as const;

/** The queue: open flags by default; pick rows, then Confirm (with a reason) or Clear. */
export function FraudQueue() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  const status = (list.filters.status || 'open') as FraudFlag['status'];
  const query = useFraudFlags({
    ...list.paging,
    status,
    ...(list.filters.rule ? { rule: list.filters.rule as FraudFlag['rule'] } : {}),
    ...(list.filters.publisher_id ? { publisher_id: list.filters.publisher_id } : {}),
  });
  const [picked, setPicked] = useState<FraudFlag[]>([]);
  const [confirming, setConfirming] = useState(false);
  const confirm = useConfirmFlags();
  const clear = useClearFlags();
  const ids = picked.map((f) => f.id);
  const done = (what: string) => (r: { changed: number }) => {
    toast({ title: what, description: `${r.changed} flag${r.changed === 1 ? '' : 's'}.` });
    setPicked([]);
  };

  const columns: DataTableColumn<FraudFlag>[] = [
    {
      accessor: 'created_at',
      title: 'Flagged',
      render: (f) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(f.created_at)}</span>,
    },
    {
      accessor: 'rule',
      title: 'Rule',
      render: (f) => (
        <Group gap={4} wrap="nowrap">
          <Text size="sm">{fraudRuleLabels[f.rule]}</Text>
          {f.action === 'hold' ? <Badge size="xs">hold</Badge> : null}
        </Group>
      ),
    },
    { accessor: 'reason', title: 'Why', render: (f) => <Text size="sm">{f.reason}</Text> },
    { accessor: 'publisher_name', title: 'Publisher' },
    {
      accessor: 'caller',
      title: 'Caller',
      render: (f) => (f.caller ? formatPhone(f.caller) : '—'),
    },
    {
      accessor: 'lead_id',
      title: 'Call',
      render: (f) => (
        <Anchor component={Link} to={adminPaths.lead(f.lead_id)} size="sm">
          {f.lead_status}
        </Anchor>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <ListFilters>
        <ListSelect
          list={list}
          name="status"
          placeholder="Open"
          data={fraudFlagStatuses.map((s) => ({
            value: s,
            label: s[0]!.toUpperCase() + s.slice(1),
          }))}
        />
        <ListSelect
          list={list}
          name="rule"
          label="Rule"
          placeholder="All rules"
          data={fraudRuleNames.map((r) => ({ value: r, label: fraudRuleLabels[r] }))}
        />
        <ListPublisherFilter list={list} />
      </ListFilters>
      {status === 'open' && picked.length ? (
        <Group>
          <Text size="sm">{picked.length} picked</Text>
          <Button size="sm" color="red" onClick={() => setConfirming(true)}>
            Confirm (reject calls)
          </Button>
          <Button
            size="sm"
            variant="default"
            loading={clear.isPending}
            onClick={() =>
              clear.mutate(
                { ids },
                { onSuccess: done('Flags cleared'), onError: failedToast('Clear failed') },
              )
            }
          >
            Clear
          </Button>
        </Group>
      ) : null}
      <PagedTable<FraudFlag>
        label="Fraud flags"
        columns={columns}
        list={{ ...list, sort: '' }}
        query={query}
        phoneCards
        errorTitle="Error loading fraud flags"
        emptyTitle={status === 'open' ? 'No open flags.' : `No ${status} flags.`}
        emptyText="Flags appear here as the rules find them in arriving calls."
        {...(status === 'open'
          ? {
              selection: {
                selected: picked,
                onChange: setPicked,
                rowLabel: (f: FraudFlag) => `Select the flag of ${f.publisher_name}'s call`,
              },
            }
          : {})}
      />
      <NoteDialog
        opened={confirming}
        title="Confirm fraud"
        note={{ label: 'Reason', required: true }}
        missing="Say why (a reason is required)."
        confirmLabel="Reject calls"
        color="red"
        pending={confirm.isPending}
        onConfirm={(reason, clear) =>
          confirm.mutate(
            { ids, reason },
            {
              onSuccess: (r) => {
                done('Fraud confirmed')(r);
                setConfirming(false);
                clear();
              },
              onError: failedToast('Confirm failed'),
            },
          )
        }
        onCancel={() => setConfirming(false)}
      >
        The {picked.length} flagged call{picked.length === 1 ? '' : 's'} will be rejected with this
        reason; no tracker event changes them afterwards.
      </NoteDialog>
    </Stack>
  );
}
