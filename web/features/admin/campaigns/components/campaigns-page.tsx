import { Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useEffect, useState } from 'react';
import type { AdminCampaign } from '../../../../../contract/admin.ts';
import { PageHeader } from '../../../../components/page-header.tsx';
import { fromTablet, PagedTable } from '../../../../components/paged-table.tsx';
import { useErrorToast } from '../../../../components/use-error-toast.ts';
import { useListParams } from '../../../../components/use-list-params.ts';
import { formatDate, formatMoney } from '../../../../lib/format.ts';
import { type CampaignListParams, useCampaigns } from '../api/list-campaigns.ts';

const sorts = ['created_at', 'name', 'budget', 'start_date'] as const;
const filterNames = ['q'] as const;

/** A `YYYY-MM-DD` date in the user's locale, read as a calendar day (no time-zone shift). */
function formatDay(day: string | null): string {
  if (!day) return '—';
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1).toLocaleDateString();
}

/** /admin/campaigns: every campaign with its buyer; search, sorting, paging (read only). */
export function CampaignsPage() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  const [search, setSearch] = useState(list.filters.q);
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const { q } = list.filters;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new debounced search resets the page
  useEffect(() => {
    if (debounced !== q) list.setFilter('q', debounced);
  }, [debounced]);

  const params: CampaignListParams = { ...list.query, q: q || undefined };
  const query = useCampaigns(params);
  useErrorToast(query.error, 'Error fetching campaigns');

  const columns: DataTableColumn<AdminCampaign>[] = [
    {
      accessor: 'name',
      title: 'Campaign',
      sortable: true,
      render: (c) => (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {c.name}
          </Text>
          {c.goal ? (
            <Text size="xs" c="dimmed" lineClamp={2}>
              {c.goal}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      accessor: 'buyer_name',
      title: 'Buyer',
      render: (c) => (
        <Stack gap={0}>
          <Text size="sm">{c.buyer_name || '—'}</Text>
          <Text size="xs" c="dimmed">
            {c.buyer_email}
          </Text>
        </Stack>
      ),
    },
    {
      accessor: 'target_audience',
      title: 'Audience',
      render: (c) => c.target_audience || '—',
      visibleMediaQuery: fromTablet,
    },
    {
      accessor: 'location',
      title: 'Location',
      render: (c) => c.location || '—',
      visibleMediaQuery: fromTablet,
    },
    {
      accessor: 'budget',
      noWrap: true,
      title: 'Budget',
      sortable: true,
      textAlign: 'right',
      render: (c) => formatMoney(c.budget),
    },
    {
      accessor: 'start_date',
      noWrap: true,
      title: 'Dates',
      sortable: true,
      render: (c) =>
        c.start_date || c.end_date ? `${formatDay(c.start_date)} – ${formatDay(c.end_date)}` : '—',
    },
    {
      accessor: 'created_at',
      noWrap: true,
      title: 'Created',
      visibleMediaQuery: fromTablet,
      sortable: true,
      render: (c) => formatDate(c.created_at),
    },
  ];

  return (
    <Stack gap="lg">
      <PageHeader title="Campaigns" description="Every buyer's campaigns." />
      <TextInput
        label="Search"
        placeholder="Campaign, buyer name or email"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        w={{ base: '100%', sm: 320 }}
      />
      <PagedTable<AdminCampaign>
        label="Campaigns"
        columns={columns}
        records={query.data?.items}
        total={query.data?.total ?? 0}
        page={list.page}
        pageSize={list.pageSize}
        onPageChange={list.setPage}
        onPageSizeChange={list.setPageSize}
        sortStatus={list.sortStatus<AdminCampaign>()}
        onSortStatusChange={list.setSortStatus}
        isPending={query.isPending}
        isFetching={query.isFetching}
        isError={query.isError}
        errorTitle="Error fetching campaigns"
        errorMessage={query.error?.message}
        onRetry={() => void query.refetch()}
        minWidth={620}
        emptyText={q ? 'No campaigns match this search.' : 'No campaigns have been created yet.'}
      />
    </Stack>
  );
}
