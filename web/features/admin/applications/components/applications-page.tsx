import type { AdminApplication } from '@contract/admin.ts';
import { Group, Stack } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { ListFilters, SearchFilter, SelectFilter } from '@/components/list-filters.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { fromTablet, PagedTable } from '@/components/paged-table.tsx';
import { PersonCell } from '@/components/person-cell.tsx';
import { StatusBadge, statusOptions } from '@/components/status-badge.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import {
  type ApplicationListParams,
  useApplications,
} from '@/features/admin/applications/api/list-applications.ts';
import { formatDate } from '@/lib/format.ts';
import { ApplicationDecisionButtons } from './application-decision-buttons.tsx';
import { IoCell } from './io-upload-button.tsx';

/** Sortable columns and the direction of their first click. */
const sorts = { created_at: 'desc', status: 'asc' } as const;
const filterNames = ['q', 'status'] as const;

/** /admin/applications: submitted applications; approve or reject pending ones, upload IOs. */
export function ApplicationsPage() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  const { q, status } = list.filters;
  const params: ApplicationListParams = {
    ...list.query,
    q: q || undefined,
    status: (status || undefined) as ApplicationListParams['status'],
  };
  const query = useApplications(params);

  const columns: DataTableColumn<AdminApplication>[] = [
    {
      accessor: 'publisher_name',
      title: 'Publisher',
      render: (a) => <PersonCell name={a.publisher_name} email={a.publisher_email} />,
    },
    { accessor: 'offer_title', title: 'Offer' },
    {
      accessor: 'status',
      title: 'Status',
      sortable: true,
      noWrap: true,
      render: (a) => <StatusBadge status={a.status} subject="application" />,
    },
    {
      accessor: 'created_at',
      title: 'Submitted',
      sortable: true,
      noWrap: true,
      visibleMediaQuery: fromTablet,
      render: (a) => formatDate(a.created_at),
    },
    {
      accessor: 'actions',
      title: 'Actions',
      textAlign: 'right',
      render: (a) => (
        <Group gap={6} justify="flex-end" wrap="nowrap">
          {a.status === 'pending' ? <ApplicationDecisionButtons application={a} /> : null}
          <IoCell application={a} />
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="lg">
      <PageHeader
        title="Applications"
        description="Publishers' applications to offers. Approve or reject pending ones and upload the IO of approved ones."
      />
      <ListFilters>
        <SearchFilter
          value={q}
          onSearch={(v) => list.setFilter('q', v)}
          placeholder="Publisher, email or offer"
        />
        <SelectFilter
          label="Status"
          placeholder="All statuses"
          data={statusOptions(['pending', 'approved', 'rejected'])}
          value={status}
          onChange={(v) => list.setFilter('status', v)}
        />
      </ListFilters>
      <PagedTable<AdminApplication>
        label="Applications"
        columns={columns}
        list={list}
        query={query}
        errorTitle="Error loading applications"
        emptyTitle={
          q || status
            ? 'No applications match these filters.'
            : 'No applications yet. They appear here once a publisher submits compliance files.'
        }
      />
    </Stack>
  );
}
