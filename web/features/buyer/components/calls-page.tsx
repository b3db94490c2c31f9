import type { BuyerCall } from '@contract/buyer-calls.ts';
import { Badge, Button, Card, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { FormModal } from '@/components/form-modal.tsx';
import { dateColumn } from '@/components/lists/columns.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { PagedTable } from '@/components/paged-table.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import {
  useBuyerDashboard,
  useCalls,
  useExportCallsCsv,
  useReturnCall,
} from '@/features/buyer/api/calls.ts';
import { formatMoney } from '@/lib/format.ts';
import { failedToast, toast } from '@/lib/notify.ts';

const sorts = { timestamp: 'desc' } as const;

/** Spend today and this month against the budgets, calls delivered and billable (issue 31). */
function SpendCards() {
  const d = useBuyerDashboard().data;
  const cards: [string, string][] = d
    ? [
        ['Spend today', formatMoney(d.spend_today)],
        ['Spend this month', formatMoney(d.spend_month)],
        ['Spent of budget', `${formatMoney(d.spent_total)} / ${formatMoney(d.budget)}`],
        ['Calls this month (delivered / billable)', `${d.calls_delivered} / ${d.calls_billable}`],
        [
          'Average duration this month',
          d.avg_duration_seconds === null ? '—' : `${d.avg_duration_seconds} s`,
        ],
      ]
    : [];
  return (
    <SimpleGrid cols={{ base: 1, sm: 3, lg: 5 }}>
      {cards.map(([label, value]) => (
        <Card key={label} withBorder padding="md">
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text fw={700} size="lg">
            {value}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

function ReturnDialog({ call, onClose }: { call: BuyerCall | null; onClose: () => void }) {
  const ret = useReturnCall();
  const [reason, setReason] = useState('');
  return (
    <FormModal
      opened={call !== null}
      onClose={onClose}
      title="Return this call"
      dirty={reason !== ''}
      pending={ret.isPending}
      size="md"
      submitLabel="Return call"
      submitDisabled={!reason.trim()}
      onSubmit={(e) => {
        e?.preventDefault();
        if (!call) return;
        ret.mutate(
          { id: call.id, reason },
          {
            onSuccess: () => {
              toast({ title: 'Call returned', description: 'An administrator will decide on it.' });
              setReason('');
              onClose();
            },
            onError: failedToast('Could not return the call'),
          },
        );
      }}
    >
      <TextInput
        label="Reason"
        required
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
      />
    </FormModal>
  );
}

/** The calls tab: every call delivered to the buyer's campaigns, billed or why not. */
export function CallsPage() {
  const list = useListParams({ sort: 'timestamp', order: 'desc', sorts }, []);
  const calls = useCalls(list.query);
  const [returning, setReturning] = useState<BuyerCall | null>(null);
  const csv = useExportCallsCsv();
  const columns: DataTableColumn<BuyerCall>[] = [
    dateColumn('timestamp', 'Time', (c) => c.timestamp),
    { accessor: 'campaign_name', title: 'Campaign' },
    { accessor: 'caller', title: 'Caller', noWrap: true, render: (c) => c.caller ?? '—' },
    { accessor: 'state', title: 'State', render: (c) => c.state ?? '—' },
    {
      accessor: 'duration_seconds',
      title: 'Duration',
      render: (c) => (c.duration_seconds === null ? '—' : `${c.duration_seconds} s`),
    },
    {
      accessor: 'billable',
      title: 'Billable',
      render: (c) => (
        <Stack gap={2} maw={240}>
          <Badge color={c.billable ? 'green' : 'gray'} variant="light">
            {c.billable ? 'billed' : 'not billed'}
          </Badge>
          {!c.billable && c.bill_reason ? (
            <Text size="xs" c="dimmed">
              {c.bill_reason}
            </Text>
          ) : null}
          {c.return_status ? <Text size="xs">Return {c.return_status}</Text> : null}
        </Stack>
      ),
    },
    { accessor: 'price', title: 'Price', textAlign: 'right', render: (c) => formatMoney(c.price) },
    {
      accessor: 'recording_url',
      title: 'Recording',
      render: (c) =>
        c.recording_url ? (
          // biome-ignore lint/a11y/useMediaCaption: call recordings have no captions
          <audio controls preload="none" src={c.recording_url} style={{ height: 32 }} />
        ) : (
          '—'
        ),
    },
    {
      accessor: 'actions',
      title: '',
      render: (c) =>
        c.billable && !c.return_status ? (
          <Button size="xs" variant="subtle" onClick={() => setReturning(c)}>
            Return
          </Button>
        ) : null,
    },
  ];
  return (
    <Stack gap="lg">
      <PageHeader
        title="Calls"
        description="Every call delivered to your campaigns, billed or why not."
        actions={
          <Button
            variant="light"
            loading={csv.isPending}
            onClick={() => csv.mutate(undefined, { onError: failedToast('Export failed') })}
          >
            Export CSV
          </Button>
        }
      />
      <SpendCards />
      <PagedTable<BuyerCall>
        label="Calls"
        loadingLabel="Loading calls"
        columns={columns}
        list={list}
        query={calls}
        errorTitle="Error fetching calls"
        emptyTitle="No calls yet."
        minWidth={980}
      />
      <ReturnDialog call={returning} onClose={() => setReturning(null)} />
    </Stack>
  );
}
