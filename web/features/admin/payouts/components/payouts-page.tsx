import type { AdminPayout } from '@contract/admin.ts';
import { Stack, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { ExportAndRecordActions } from '@/components/export-and-record.tsx';
import { DateRangeFilter, ListFilters } from '@/components/list-filters.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { PagedTable } from '@/components/paged-table.tsx';
import { PersonCell } from '@/components/person-cell.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import { PublisherSelect } from '@/features/admin/leads/components/search-select.tsx';
import { useExportPayoutsCsv } from '@/features/admin/payouts/api/export-payouts-csv.ts';
import { type PayoutFilterParams, usePayouts } from '@/features/admin/payouts/api/list-payouts.ts';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { PayoutFormModal } from './payout-form-modal.tsx';

/** Sortable columns and the direction of their first click. */
const sorts = { date: 'desc', amount: 'desc' } as const;
const filterNames = ['publisher_id', 'from', 'to'] as const;

/** /admin/payouts: payouts with publisher names, filters, sorting, paging, CSV, and recording. */
export function PayoutsPage() {
  const list = useListParams({ sort: 'date', order: 'desc', sorts }, filterNames);
  const [formOpen, setFormOpen] = useState(false);
  const exportMutation = useExportPayoutsCsv();

  const { publisher_id, from, to } = list.filters;
  const filters: PayoutFilterParams = {
    sort: list.sort,
    order: list.order,
    publisher_id: publisher_id || undefined,
    from: from || undefined,
    to: to || undefined,
  };
  const query = usePayouts({
    ...filters,
    page: list.page,
    page_size: list.pageSize,
    after: list.after,
  });
  const filtered = Boolean(publisher_id || from || to);

  const columns: DataTableColumn<AdminPayout>[] = [
    {
      accessor: 'date',
      title: 'Date',
      sortable: true,
      width: 120,
      render: (p) => formatDateTime(p.date),
    },
    {
      accessor: 'publisher_name',
      title: 'Publisher',
      render: (p) => <PersonCell name={p.publisher_name} email={p.publisher_email} />,
    },
    {
      accessor: 'amount',
      title: 'Amount',
      sortable: true,
      noWrap: true,
      textAlign: 'right',
      render: (p) => formatMoney(p.amount),
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
  ];

  return (
    <Stack gap="lg">
      <PageHeader
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
      />
      <ListFilters>
        <PublisherSelect
          label="Publisher"
          placeholder="All publishers"
          value={publisher_id || null}
          onChange={(v) => list.setFilter('publisher_id', v)}
          w={{ base: '100%', sm: 260 }}
        />
        <DateRangeFilter
          from={from}
          to={to}
          onChange={(f, t) => list.setFilters({ from: f, to: t })}
        />
      </ListFilters>
      <PagedTable<AdminPayout>
        label="Payouts"
        columns={columns}
        list={list}
        query={query}
        errorTitle="Error loading payouts"
        emptyTitle={filtered ? 'No payouts match these filters.' : 'No payouts recorded yet.'}
      />
      <PayoutFormModal opened={formOpen} onClose={() => setFormOpen(false)} />
    </Stack>
  );
}
