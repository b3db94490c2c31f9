import { Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useEffect, useState } from 'react';
import type { AdminApplication } from '../../../../../contract/admin.ts';
import { PageHeader } from '../../../../components/page-header.tsx';
import { PagedTable } from '../../../../components/paged-table.tsx';
import { useErrorToast } from '../../../../components/use-error-toast.ts';
import { useListParams } from '../../../../components/use-list-params.ts';
import { formatDate } from '../../../../lib/format.ts';
import { type ApplicationListParams, useApplications } from '../api/list-applications.ts';
import { ApplicationDecisionButtons } from './application-decision-buttons.tsx';
import { ApplicationStatusBadge } from './application-status-badge.tsx';
import { IoCell } from './io-upload-button.tsx';

const sorts = ['created_at', 'status'] as const;
const filterNames = ['q', 'status'] as const;
const statusOptions = [
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
];

/** /admin/applications: submitted applications; approve or reject pending ones, upload IOs. */
export function ApplicationsPage() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  const [search, setSearch] = useState(list.filters.q);
  const [debounced] = useDebouncedValue(search.trim(), 300);

  const { q, status } = list.filters;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new debounced search resets the page
  useEffect(() => {
    if (debounced !== q) list.setFilter('q', debounced);
  }, [debounced]);

  const params: ApplicationListParams = {
    ...list.query,
    q: q || undefined,
    status: (status || undefined) as ApplicationListParams['status'],
  };
  const query = useApplications(params);
  useErrorToast(query.error, 'Error loading applications');

  const columns: DataTableColumn<AdminApplication>[] = [
    {
      accessor: 'publisher_name',
      title: 'Publisher',
      render: (a) => (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {a.publisher_name || '—'}
          </Text>
          <Text size="xs" c="dimmed">
            {a.publisher_email}
          </Text>
        </Stack>
      ),
    },
    { accessor: 'offer_title', title: 'Offer' },
    {
      accessor: 'status',
      title: 'Status',
      sortable: true,
      render: (a) => <ApplicationStatusBadge status={a.status} />,
    },
    {
      accessor: 'created_at',
      title: 'Submitted',
      sortable: true,
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
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label="Search"
          placeholder="Publisher, email or offer"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={{ base: '100%', sm: 280 }}
        />
        <Select
          label="Status"
          placeholder="All statuses"
          data={statusOptions}
          value={status || null}
          onChange={(v) => list.setFilter('status', v)}
          clearable
          w={{ base: '100%', sm: 200 }}
        />
      </Group>
      <PagedTable<AdminApplication>
        label="Applications"
        columns={columns}
        records={query.data?.items}
        total={query.data?.total ?? 0}
        page={list.page}
        pageSize={list.pageSize}
        onPageChange={list.setPage}
        onPageSizeChange={list.setPageSize}
        sortStatus={list.sortStatus<AdminApplication>()}
        onSortStatusChange={list.setSortStatus}
        isPending={query.isPending}
        isFetching={query.isFetching}
        isError={query.isError}
        errorTitle="Error loading applications"
        errorMessage={query.error?.message}
        onRetry={() => void query.refetch()}
        emptyText={
          q || status
            ? 'No applications match these filters.'
            : 'No applications yet. They appear here once a publisher submits compliance files.'
        }
      />
    </Stack>
  );
}
