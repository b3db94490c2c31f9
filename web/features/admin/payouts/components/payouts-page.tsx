import type { AdminPayout } from '@contract/admin.ts';
import { PAYOUT_STATUS_LABELS } from '@contract/money-rules.ts';
import { Badge, Button, Group, Stack, Tabs, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ExportAndRecordActions } from '@/components/export-and-record.tsx';
import { publisherColumn } from '@/components/lists/columns.tsx';
import {
  ListDateFilter,
  ListPublisherFilter,
  ListSelect,
} from '@/components/lists/list-filter-fields.tsx';
import { ListPage } from '@/components/lists/list-page.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import { useExportPayoutsCsv } from '@/features/admin/payouts/api/export-payouts-csv.ts';
import { type PayoutFilterParams, usePayouts } from '@/features/admin/payouts/api/list-payouts.ts';
import { useDownloadAdminStatement } from '@/features/admin/payouts/api/money.ts';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { BalancesTab } from './balances-tab.tsx';
import { PayoutFormModal } from './payout-form-modal.tsx';
import { NewRunModal, type Picked, RunsTab } from './runs-tab.tsx';

/** Sortable columns and the direction of their first click. */
const sorts = { date: 'desc', amount: 'desc' } as const;
const filterNames = ['publisher_id', 'status', 'from', 'to'] as const;

type Tab = 'payouts' | 'balances' | 'runs';

/** A payout's statement downloads: the PDF first (the one usually wanted), then the CSV. */
const statementFormats = [
  { format: 'pdf', variant: 'light' },
  { format: 'csv', variant: 'subtle' },
] as const;

/** A tab of the payouts screen under its own heading. */
function TabPanel({
  value,
  title,
  description,
  children,
}: {
  value: Tab;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Tabs.Panel value={value}>
      <Stack gap="lg">
        <PageHeader title={title} description={description} />
        {children}
      </Stack>
    </Tabs.Panel>
  );
}

/**
 * /admin/payouts: three tabs (the tab in the URL, `?tab=balances`): the payouts list (the
 * spec's screen), Balances (what each publisher is owed) and Payout runs.
 */
export function PayoutsPage() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab: Tab = raw === 'balances' || raw === 'runs' ? raw : 'payouts';
  const [runOpen, setRunOpen] = useState(false);
  const [runFor, setRunFor] = useState<Picked[]>([]);
  const openRun = (picked: Picked[]) => {
    setRunFor(picked);
    setRunOpen(true);
  };
  return (
    <Stack gap="lg">
      <Tabs
        value={tab}
        onChange={(v) => setParams(v && v !== 'payouts' ? { tab: v } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="payouts">Payouts</Tabs.Tab>
          <Tabs.Tab value="balances">Balances</Tabs.Tab>
          <Tabs.Tab value="runs">Payout runs</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="payouts">
          <PayoutsList />
        </Tabs.Panel>
        <TabPanel
          value="balances"
          title="Balances"
          description="What each publisher earned, what waits for a run, what is in a run not yet paid, and what was paid."
        >
          <BalancesTab onRunSelected={openRun} />
        </TabPanel>
        <TabPanel
          value="runs"
          title="Payout runs"
          description="Pay publishers what they are owed, export the file for the bank, mark it paid."
        >
          <RunsTab onNewRun={() => openRun([])} />
        </TabPanel>
      </Tabs>
      {runOpen ? (
        <NewRunModal
          opened
          initial={runFor}
          onClose={(recorded) => {
            setRunOpen(false);
            if (recorded && tab !== 'runs') setParams({ tab: 'runs' }, { replace: true });
          }}
        />
      ) : null}
    </Stack>
  );
}

/** The spec's payouts list: publisher names, filters, sorting, paging, CSV, and recording. */
function PayoutsList() {
  const list = useListParams({ sort: 'date', order: 'desc', sorts }, filterNames);
  const [formOpen, setFormOpen] = useState(false);
  const exportMutation = useExportPayoutsCsv();
  const statement = useDownloadAdminStatement();

  const { publisher_id, status, from, to } = list.filters;
  const filters: PayoutFilterParams = {
    sort: list.sort,
    order: list.order,
    publisher_id: publisher_id || undefined,
    status: status === 'recorded' || status === 'paid' ? status : undefined,
    from: from || undefined,
    to: to || undefined,
  };
  const query = usePayouts({
    ...filters,
    ...list.paging,
  });

  const columns: DataTableColumn<AdminPayout>[] = [
    {
      accessor: 'date',
      title: 'Date',
      sortable: true,
      width: 120,
      render: (p) => formatDateTime(p.date),
    },
    publisherColumn(),
    {
      accessor: 'amount',
      title: 'Amount',
      sortable: true,
      noWrap: true,
      textAlign: 'right',
      render: (p) => formatMoney(p.amount),
    },
    {
      accessor: 'run_id',
      title: 'Status',
      render: (p) => (
        <Stack gap={0}>
          <Badge color={p.status === 'paid' ? 'teal' : 'orange'} variant="light">
            {PAYOUT_STATUS_LABELS[p.status]}
          </Badge>
          {p.reference ? (
            <Text size="xs" c="dimmed">
              Ref. {p.reference}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      accessor: 'notes',
      title: 'Notes',
      render: (p) => (
        <Text size="sm" lineClamp={2} maw={360} miw={160}>
          {p.notes || '—'}
        </Text>
      ),
    },
    {
      accessor: 'status',
      title: 'Statement',
      render: (p) => (
        <Group gap={6} wrap="nowrap">
          {p.statement_number ? (
            <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
              {p.statement_number}
            </Text>
          ) : null}
          {statementFormats.map(({ format, variant }) => (
            <Button
              key={format}
              size="compact-sm"
              variant={variant}
              aria-label={`Statement ${format.toUpperCase()} of the payout to ${p.publisher_name ?? p.publisher_email} of ${formatDateTime(p.date)}`}
              onClick={() => statement.mutate({ id: p.id, format })}
            >
              {format.toUpperCase()}
            </Button>
          ))}
        </Group>
      ),
    },
  ];

  return (
    <ListPage<AdminPayout>
      title="Payouts"
      description="Money paid to publishers. Record a payout when you send one."
      actions={
        <ExportAndRecordActions
          exportCsv={() => exportMutation.mutateAsync(filters)}
          exporting={exportMutation.isPending}
          recordLabel="Record Payout"
          onRecord={() => setFormOpen(true)}
        />
      }
      filters={
        <>
          <ListPublisherFilter list={list} w={260} />
          <ListSelect
            list={list}
            name="status"
            placeholder="Any status"
            data={[
              { value: 'recorded', label: PAYOUT_STATUS_LABELS.recorded },
              { value: 'paid', label: PAYOUT_STATUS_LABELS.paid },
            ]}
            w={220}
          />
          <ListDateFilter list={list} />
        </>
      }
      empty="No payouts recorded yet."
      columns={columns}
      list={list}
      query={query}
    >
      <PayoutFormModal opened={formOpen} onClose={() => setFormOpen(false)} />
    </ListPage>
  );
}
