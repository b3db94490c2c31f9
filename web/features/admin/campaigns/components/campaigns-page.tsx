import type { AdminCampaign } from '@contract/admin.ts';
import { Stack, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { CampaignStatusCell } from '@/components/campaigns/campaign-status.tsx';
import { DimmedNote } from '@/components/dimmed-note.tsx';
import { dateColumn, personColumn, titleColumn } from '@/components/lists/columns.tsx';
import { ListSearch } from '@/components/lists/list-filter-fields.tsx';
import { ListPage } from '@/components/lists/list-page.tsx';
import { fromTablet } from '@/components/paged-table.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import { useCampaigns } from '@/features/admin/campaigns/api/list-campaigns.ts';
import { formatDay, formatMoney } from '@/lib/format.ts';
import { CampaignActions } from './campaign-actions.tsx';

/** Sortable columns and the direction of their first click. */
const sorts = { created_at: 'desc', name: 'asc', budget: 'desc', start_date: 'desc' } as const;
const filterNames = ['q'] as const;

/**
 * /admin/campaigns: every campaign with its buyer, status and terms; search, sorting, paging;
 * approve, reject, pause, resume and end from the row's menu (issue 31).
 */
export function CampaignsPage() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  const query = useCampaigns({ ...list.query, ...list.activeFilters });

  const columns: DataTableColumn<AdminCampaign>[] = [
    titleColumn('name', 'Campaign', (c) => ({ title: c.name, sub: c.goal, clamp: 2, miw: 140 })),
    personColumn('buyer_name', 'Buyer', (c) => ({ name: c.buyer_name, email: c.buyer_email })),
    {
      accessor: 'status',
      title: 'Status',
      render: (c) => (
        <Stack gap={2}>
          <CampaignStatusCell status={c.status} reason={c.status_reason} />
          {c.offer_title ? (
            <Text size="xs">
              {c.offer_title} · {formatMoney(c.price_per_call)} per call · spent{' '}
              {formatMoney(c.spent)}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      accessor: 'target_audience',
      title: 'Audience and location',
      visibleMediaQuery: fromTablet,
      render: (c) =>
        c.target_audience || c.location ? (
          <Stack gap={0} miw={140}>
            <Text size="sm">{c.target_audience || '—'}</Text>
            <DimmedNote>{c.location}</DimmedNote>
          </Stack>
        ) : (
          '—'
        ),
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
    dateColumn('created_at', 'Created', (c) => c.created_at, {
      visibleMediaQuery: fromTablet,
      sortable: true,
    }),
    {
      accessor: 'actions',
      title: '',
      textAlign: 'right',
      render: (c) => <CampaignActions c={c} />,
    },
  ];

  return (
    <ListPage<AdminCampaign>
      title="Campaigns"
      description="Every buyer's campaigns: approve the pending ones with the offer they buy and their price."
      filters={
        <ListSearch list={list} name="q" placeholder="Campaign, buyer name or email" w={320} />
      }
      errorTitle="Error fetching campaigns"
      empty="No campaigns have been created yet."
      emptyTitle={list.filtered ? 'No campaigns match this search.' : undefined}
      columns={columns}
      list={list}
      query={query}
      minWidth={620}
    />
  );
}
