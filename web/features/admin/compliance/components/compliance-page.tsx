import { Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlayerPlay, IconSearch } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useEffect, useState } from 'react';
import type { ComplianceSubmission } from '../../../../../contract/admin.ts';
import { PageHeader } from '../../../../components/page-header.tsx';
import { PagedTable } from '../../../../components/paged-table.tsx';
import { useErrorToast } from '../../../../components/use-error-toast.ts';
import { useListParams } from '../../../../components/use-list-params.ts';
import { formatDate } from '../../../../lib/format.ts';
import { ApplicationStatusBadge } from '../../applications/components/application-status-badge.tsx';
import { type ComplianceListParams, useCompliance } from '../api/list-compliance.ts';
import { ComplianceReviewModal } from './compliance-review-modal.tsx';

const sorts = ['created_at'] as const;
const filterNames = ['q', 'status'] as const;
const statusOptions = [
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
];

/** /admin/compliance: submissions with their files; review plays the media and decides. */
export function CompliancePage() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  const [search, setSearch] = useState(list.filters.q);
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [reviewing, setReviewing] = useState<ComplianceSubmission | null>(null);

  const { q, status } = list.filters;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new debounced search resets the page
  useEffect(() => {
    if (debounced !== q) list.setFilter('q', debounced);
  }, [debounced]);

  const params: ComplianceListParams = {
    ...list.query,
    sort: 'created_at',
    q: q || undefined,
    status: (status || undefined) as ComplianceListParams['status'],
  };
  const query = useCompliance(params);
  useErrorToast(query.error, 'Error loading submissions');

  const columns: DataTableColumn<ComplianceSubmission>[] = [
    {
      accessor: 'publisher_name',
      title: 'Publisher',
      render: (s) => (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {s.publisher_name || '—'}
          </Text>
          <Text size="xs" c="dimmed">
            {s.publisher_email}
          </Text>
        </Stack>
      ),
    },
    { accessor: 'offer_title', title: 'Offer' },
    {
      accessor: 'application_status',
      title: 'Application status',
      render: (s) => <ApplicationStatusBadge status={s.application_status} />,
    },
    {
      accessor: 'files',
      title: 'Files',
      render: (s) => `${s.media.length} media, 1 document`,
    },
    {
      accessor: 'created_at',
      title: 'Submitted',
      sortable: true,
      render: (s) => formatDate(s.created_at),
    },
    {
      accessor: 'actions',
      title: 'Actions',
      textAlign: 'right',
      render: (s) => (
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPlayerPlay size={14} />}
          onClick={(e) => {
            e.stopPropagation();
            setReviewing(s);
          }}
          aria-label={`Review submission of ${s.publisher_name || s.publisher_email} for ${s.offer_title}`}
        >
          Review
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="lg">
      <PageHeader
        title="Compliance"
        description="Compliance submissions: listen to the calls, read the document, and decide the application."
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
          label="Application status"
          placeholder="All statuses"
          data={statusOptions}
          value={status || null}
          onChange={(v) => list.setFilter('status', v)}
          clearable
          w={{ base: '100%', sm: 220 }}
        />
      </Group>
      <PagedTable<ComplianceSubmission>
        label="Compliance submissions"
        columns={columns}
        records={query.data?.items}
        total={query.data?.total ?? 0}
        page={list.page}
        pageSize={list.pageSize}
        onPageChange={list.setPage}
        onPageSizeChange={list.setPageSize}
        sortStatus={list.sortStatus<ComplianceSubmission>()}
        onSortStatusChange={list.setSortStatus}
        isPending={query.isPending}
        isFetching={query.isFetching}
        isError={query.isError}
        errorTitle="Error loading submissions"
        errorMessage={query.error?.message}
        onRetry={() => void query.refetch()}
        emptyText={
          q || status
            ? 'No submissions match these filters.'
            : 'No compliance submissions yet. They appear here when a publisher applies to an offer.'
        }
        onRowClick={setReviewing}
      />
      <ComplianceReviewModal
        submission={reviewing}
        fetchedAt={query.dataUpdatedAt}
        onClose={() => setReviewing(null)}
      />
    </Stack>
  );
}
