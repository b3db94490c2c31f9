import type { AdminLead } from '@contract/admin.ts';
import type { LeadStatus } from '@contract/roles.ts';
import { Stack } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { ExportAndRecordActions } from '@/components/export-and-record.tsx';
import { DateRangeFilter, ListFilters, SelectFilter } from '@/components/list-filters.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { PagedTable } from '@/components/paged-table.tsx';
import { PersonCell } from '@/components/person-cell.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import { useExportLeadsCsv } from '@/features/admin/leads/api/export-leads-csv.ts';
import { type LeadFilterParams, useLeads } from '@/features/admin/leads/api/list-leads.ts';
import { formatDateTime, formatDuration, formatMoney } from '@/lib/format.ts';
import { LeadFormModal } from './lead-form-modal.tsx';
import { LeadStatusSelect, leadStatusOptions } from './lead-status.tsx';
import { OfferSelect, PublisherSelect } from './search-select.tsx';

/** Sortable columns and the direction of their first click. */
const sorts = { timestamp: 'desc', payout: 'desc', call_duration: 'desc' } as const;
const filterNames = ['status', 'publisher_id', 'offer_id', 'from', 'to'] as const;

/** /admin/leads: every lead with filters, sorting, paging, CSV export, and recording by hand. */
export function LeadsPage() {
  const list = useListParams({ sort: 'timestamp', order: 'desc', sorts }, filterNames);
  const [formOpen, setFormOpen] = useState(false);
  const exportMutation = useExportLeadsCsv();

  const { status, publisher_id, offer_id, from, to } = list.filters;
  const filters: LeadFilterParams = {
    sort: list.sort,
    order: list.order,
    status: (status || undefined) as LeadStatus | undefined,
    publisher_id: publisher_id || undefined,
    offer_id: offer_id || undefined,
    from: from || undefined,
    to: to || undefined,
  };
  const query = useLeads({
    ...filters,
    page: list.page,
    page_size: list.pageSize,
    after: list.after,
  });
  const filtered = Boolean(status || publisher_id || offer_id || from || to);

  const columns: DataTableColumn<AdminLead>[] = [
    {
      accessor: 'timestamp',
      title: 'Date',
      sortable: true,
      width: 120,
      render: (l) => formatDateTime(l.timestamp),
    },
    {
      accessor: 'publisher_name',
      title: 'Publisher',
      render: (l) => <PersonCell name={l.publisher_name} email={l.publisher_email} />,
    },
    { accessor: 'offer_title', title: 'Offer' },
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
      render: (l) => formatMoney(l.payout),
    },
    {
      accessor: 'status',
      title: 'Status',
      render: (l) => <LeadStatusSelect lead={l} />,
    },
  ];

  return (
    <Stack gap="lg">
      <PageHeader
        title="Leads"
        description="Every call publishers have generated. Record a lead by hand or change its status."
        actions={
          <ExportAndRecordActions
            exportCsv={() => exportMutation.mutateAsync(filters)}
            exporting={exportMutation.isPending}
            recordLabel="Record Lead"
            onRecord={() => setFormOpen(true)}
          />
        }
      />
      <ListFilters>
        <SelectFilter
          label="Status"
          placeholder="All statuses"
          data={leadStatusOptions}
          value={status}
          onChange={(v) => list.setFilter('status', v)}
          w={160}
        />
        <PublisherSelect
          label="Publisher"
          placeholder="All publishers"
          value={publisher_id || null}
          onChange={(v) => list.setFilter('publisher_id', v)}
          w={{ base: '100%', sm: 240 }}
        />
        <OfferSelect
          label="Offer"
          placeholder="All offers"
          value={offer_id || null}
          onChange={(v) => list.setFilter('offer_id', v)}
          w={{ base: '100%', sm: 240 }}
        />
        <DateRangeFilter
          from={from}
          to={to}
          onChange={(f, t) => list.setFilters({ from: f, to: t })}
        />
      </ListFilters>
      <PagedTable<AdminLead>
        label="Leads"
        columns={columns}
        list={list}
        query={query}
        errorTitle="Error loading leads"
        emptyTitle={filtered ? 'No leads match these filters.' : 'No leads yet.'}
      />
      <LeadFormModal opened={formOpen} onClose={() => setFormOpen(false)} />
    </Stack>
  );
}
