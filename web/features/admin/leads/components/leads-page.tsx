import type { AdminLead } from '@contract/admin.ts';
import type { LeadStatus } from '@contract/roles.ts';
import { Button, Stack, Text } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { Link } from 'react-router';
import { adminPaths } from '@/app/routes.ts';
import { ExportAndRecordActions } from '@/components/export-and-record.tsx';
import { activeFilterCount, FoldingFilters } from '@/components/folding-filters.tsx';
import { LeadPayout } from '@/components/lead-detail/lead-payout.tsx';
import { dateColumn, publisherAndOfferColumns } from '@/components/lists/columns.tsx';
import {
  ListDateFilter,
  ListOfferFilter,
  ListPublisherFilter,
  ListSearch,
  ListSelect,
} from '@/components/lists/list-filter-fields.tsx';
import { ListPage } from '@/components/lists/list-page.tsx';
import { NewCallsBar } from '@/components/live/new-calls-bar.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import { useExportLeadsCsv } from '@/features/admin/leads/api/export-leads-csv.ts';
import { type LeadFilterParams, useLeads } from '@/features/admin/leads/api/list-leads.ts';
import { formatDateTime, formatDuration } from '@/lib/format.ts';
import { formatPhone } from '@/lib/phone-format.ts';
import { BulkBar, type BulkSelection, LeadTotalsLine } from './bulk-bar.tsx';
import { type BulkRequest, BulkStatusModal } from './bulk-status-modal.tsx';
import { LeadFormModal } from './lead-form-modal.tsx';
import {
  LeadStatusSelect,
  leadStatusOptions,
  type StatusChange,
  StatusChangeModal,
} from './lead-status.tsx';

/** Sortable columns and the direction of their first click. */
const sorts = { timestamp: 'desc', payout: 'desc', call_duration: 'desc' } as const;
const filterNames = [
  'q',
  'status',
  'publisher_id',
  'offer_id',
  'state',
  'vertical',
  'from',
  'to',
] as const;

/** /admin/leads: every lead with filters, sorting, paging, CSV export, and recording by hand. */
export function LeadsPage() {
  const list = useListParams({ sort: 'timestamp', order: 'desc', sorts }, filterNames);
  const [formOpen, setFormOpen] = useState(false);
  const [change, setChange] = useState<StatusChange | null>(null);
  const [bulk, setBulk] = useState<BulkRequest | null>(null);
  const exportMutation = useExportLeadsCsv();

  const { q, status, publisher_id, offer_id, state, vertical, from, to } = list.filters;
  const filters: LeadFilterParams = {
    sort: list.sort,
    order: list.order,
    q: q || undefined,
    status: (status || undefined) as LeadStatus | undefined,
    publisher_id: publisher_id || undefined,
    offer_id: offer_id || undefined,
    state: state || undefined,
    vertical: vertical || undefined,
    from: from || undefined,
    to: to || undefined,
  };
  const query = useLeads({
    ...filters,
    ...list.paging,
  });
  const filter = {
    q: filters.q,
    status: filters.status,
    publisher_id: filters.publisher_id,
    offer_id: filters.offer_id,
    state: filters.state,
    vertical: filters.vertical,
    from: filters.from,
    to: filters.to,
  };
  // The selection belongs to one filter: a new filter starts with nothing picked.
  const filterKey = JSON.stringify(filter);
  const [selection, setSelection] = useState<BulkSelection>({
    key: filterKey,
    rows: [],
    all: false,
  });
  const current =
    selection.key === filterKey ? selection : { key: filterKey, rows: [], all: false };
  const select = (rows: AdminLead[]) => setSelection({ key: filterKey, rows, all: false });

  const columns: DataTableColumn<AdminLead>[] = [
    dateColumn('timestamp', 'Date', (l) => l.timestamp, {
      sortable: true,
      format: formatDateTime,
      link: (l) => adminPaths.lead(l.id),
    }),
    // Eight columns at 1280 px beside the menu: the e-mail is cut sooner (whole on hover/focus).
    ...publisherAndOfferColumns({ base: 200, md: 160 }),
    {
      accessor: 'caller',
      title: 'Caller',
      noWrap: true,
      render: (l) => (
        <Stack gap={0}>
          <Text size="sm">{l.caller ? formatPhone(l.caller) : '—'}</Text>
          {l.call_id ? (
            <Text size="xs" c="dimmed" title="The tracker's call id">
              {l.call_id.length > 18 ? `${l.call_id.slice(0, 16)}…` : l.call_id}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      accessor: 'call_duration',
      title: 'Duration',
      sortable: true,
      noWrap: true,
      textAlign: 'right',
      render: (l) => formatDuration(l.call_duration),
    },
    {
      accessor: 'payout',
      title: 'Payout',
      sortable: true,
      noWrap: true,
      textAlign: 'right',
      render: (l) => <LeadPayout payout={l.payout} status={l.status} />,
    },
    {
      accessor: 'status',
      title: 'Status',
      render: (l) => <LeadStatusSelect lead={l} onPick={setChange} />,
    },
  ];

  return (
    <ListPage<AdminLead>
      title="Leads"
      description="Every call publishers have generated. Record a lead by hand or change its status."
      actions={
        <>
          <Button
            variant="default"
            component={Link}
            to={adminPaths.leadImport}
            leftSection={<IconFileImport size={16} />}
          >
            Import CSV
          </Button>
          <ExportAndRecordActions
            exportCsv={() => exportMutation.mutateAsync(filters)}
            exporting={exportMutation.isPending}
            recordLabel="Record Lead"
            onRecord={() => setFormOpen(true)}
          />
        </>
      }
      filters={
        <FoldingFilters count={activeFilterCount(list.filters)}>
          <ListSearch
            list={list}
            name="q"
            label="Find a call"
            placeholder="Call id, caller or tracking number"
            w={260}
          />
          <ListSelect list={list} name="status" data={leadStatusOptions} w={160} />
          <ListPublisherFilter list={list} />
          <ListOfferFilter list={list} />
          <ListSearch
            list={list}
            name="state"
            label="Caller state"
            placeholder="Any state"
            w={130}
          />
          <ListSearch
            list={list}
            name="vertical"
            label="Vertical"
            placeholder="Any vertical"
            w={160}
          />
          <ListDateFilter list={list} />
        </FoldingFilters>
      }
      above={
        <>
          <NewCallsBar />
          <LeadTotalsLine filter={filter} />
          <BulkBar
            selection={current}
            pageRows={query.data?.items.length ?? 0}
            filter={filter}
            onSelectAll={() => setSelection({ key: filterKey, rows: current.rows, all: true })}
            onClear={() => select([])}
            onAction={(s) =>
              setBulk({
                status: s,
                target: current.all ? { filter } : { ids: current.rows.map((r) => r.id) },
              })
            }
          />
        </>
      }
      empty="No leads yet."
      columns={columns}
      list={list}
      query={query}
      selection={{
        selected: current.rows,
        onChange: select,
        rowLabel: (l) =>
          `Select the lead of ${l.publisher_name || l.publisher_email} for ${l.offer_title}`,
      }}
    >
      <LeadFormModal opened={formOpen} onClose={() => setFormOpen(false)} />
      <StatusChangeModal change={change} onClose={() => setChange(null)} />
      <BulkStatusModal request={bulk} onClose={() => setBulk(null)} onDone={() => select([])} />
    </ListPage>
  );
}
