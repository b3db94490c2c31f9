import { Anchor, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { AdminPublisher } from '../../../../../contract/admin.ts';
import type { PublisherStatus } from '../../../../../contract/roles.ts';
import { PageHeader } from '../../../../components/page-header.tsx';
import { fromTablet, PagedTable } from '../../../../components/paged-table.tsx';
import { useErrorToast } from '../../../../components/use-error-toast.ts';
import { useListParams } from '../../../../components/use-list-params.ts';
import { formatDate } from '../../../../lib/format.ts';
import { adminPaths } from '../../paths.ts';
import { type PublisherListParams, usePublishers } from '../api/list-publishers.ts';
import { AgreementUploadButton } from './agreement-upload-button.tsx';
import { PublisherStatusActions } from './publisher-status-actions.tsx';
import { PublisherStatusBadge } from './publisher-status-badge.tsx';

const sorts = ['created_at', 'name', 'email', 'status'] as const;
const filterNames = ['q', 'status'] as const;
const statusOptions = [
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'active', label: 'Active (legacy)' },
  { value: 'blocked', label: 'Blocked' },
];

/** /admin/publishers: search, status filter, sorting, paging; approve, reject, block, agreements. */
export function PublishersPage() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  const [search, setSearch] = useState(list.filters.q);
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const navigate = useNavigate();

  const { q, status } = list.filters;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new debounced search resets the page
  useEffect(() => {
    if (debounced !== q) list.setFilter('q', debounced);
  }, [debounced]);

  const params: PublisherListParams = {
    ...list.query,
    q: q || undefined,
    status: (status || undefined) as PublisherStatus | undefined,
  };
  const query = usePublishers(params);
  useErrorToast(query.error, 'Error loading publishers');

  const columns: DataTableColumn<AdminPublisher>[] = [
    {
      accessor: 'name',
      title: 'Name',
      sortable: true,
      render: (p) => (
        <Stack gap={0}>
          <Anchor
            component={Link}
            to={adminPaths.publisher(p.id)}
            fw={600}
            size="sm"
            onClick={(e) => e.stopPropagation()}
          >
            {p.name || '—'}
          </Anchor>
          {p.business_legal_name ? (
            <Text size="xs" c="dimmed">
              {p.business_legal_name}
            </Text>
          ) : null}
          <Text size="xs" c="dimmed" hiddenFrom="sm">
            {p.email}
          </Text>
        </Stack>
      ),
    },
    {
      accessor: 'email',
      noWrap: true,
      title: 'Email',
      sortable: true,
      visibleMediaQuery: fromTablet,
    },
    {
      accessor: 'status',
      noWrap: true,
      width: 120,
      title: 'Status',
      sortable: true,
      render: (p) => <PublisherStatusBadge status={p.status} />,
    },
    {
      accessor: 'created_at',
      noWrap: true,
      title: 'Signed up',
      sortable: true,
      visibleMediaQuery: fromTablet,
      render: (p) => formatDate(p.created_at),
    },
    {
      accessor: 'actions',
      noWrap: true,
      title: 'Actions',
      textAlign: 'right',
      render: (p) => (
        <Group gap={6} justify="flex-end" wrap="nowrap">
          <PublisherStatusActions publisher={p} />
          <AgreementUploadButton publisher={p} />
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="lg">
      <PageHeader
        title="Publishers"
        description="Approve new publishers, block or unblock accounts, and upload agreements."
      />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label="Search"
          placeholder="Name or email"
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
      <PagedTable<AdminPublisher>
        label="Publishers"
        columns={columns}
        records={query.data?.items}
        total={query.data?.total ?? 0}
        page={list.page}
        pageSize={list.pageSize}
        onPageChange={list.setPage}
        onPageSizeChange={list.setPageSize}
        sortStatus={list.sortStatus<AdminPublisher>()}
        onSortStatusChange={list.setSortStatus}
        isPending={query.isPending}
        isFetching={query.isFetching}
        isError={query.isError}
        errorTitle="Error loading publishers"
        errorMessage={query.error?.message}
        onRetry={() => void query.refetch()}
        minWidth={640}
        emptyText={
          q || status ? 'No publishers match these filters.' : 'No publishers have signed up yet.'
        }
        onRowClick={(p) => navigate(adminPaths.publisher(p.id))}
      />
    </Stack>
  );
}
