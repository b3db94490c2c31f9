import 'mantine-datatable/styles.css';
import { Text } from '@mantine/core';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import { useMemo, useState } from 'react';
import type { Campaign } from '../../../../contract/buyer.ts';
import { formatDate, formatMoney } from '../../../lib/format.ts';
import {
  type CampaignSort,
  type CampaignSortKey,
  filterCampaigns,
  formatDay,
  sortCampaigns,
} from '../campaign-rows.ts';

const PAGE_SIZES = [10, 25, 50];

const paginationLabels = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

function dash(value: string | null) {
  return value?.trim() ? value : '—';
}

const columns: DataTableColumn<Campaign>[] = [
  {
    accessor: 'name',
    title: 'Name',
    sortable: true,
    render: (c) => (
      <Text size="sm" fw={600}>
        {c.name}
      </Text>
    ),
  },
  { accessor: 'goal', title: 'Goal', sortable: true, render: (c) => dash(c.goal) },
  {
    accessor: 'target_audience',
    title: 'Target Audience',
    sortable: true,
    render: (c) => dash(c.target_audience),
  },
  { accessor: 'location', title: 'Location', sortable: true, render: (c) => dash(c.location) },
  {
    accessor: 'budget',
    title: 'Budget',
    sortable: true,
    textAlign: 'right',
    noWrap: true,
    render: (c) => formatMoney(c.budget),
  },
  {
    accessor: 'start_date',
    title: 'Start',
    sortable: true,
    noWrap: true,
    render: (c) => formatDay(c.start_date),
  },
  {
    accessor: 'end_date',
    title: 'End',
    sortable: true,
    noWrap: true,
    render: (c) => formatDay(c.end_date),
  },
  {
    accessor: 'created_at',
    title: 'Created',
    sortable: true,
    noWrap: true,
    render: (c) => formatDate(c.created_at),
  },
];

type CampaignsTableProps = {
  campaigns: Campaign[];
  search: string;
};

/** 'Your Campaigns': searched, sorted and paged in the browser (a buyer's list is short). */
export function CampaignsTable({ campaigns, search }: CampaignsTableProps) {
  const [sort, setSort] = useState<CampaignSort>({
    columnAccessor: 'created_at',
    direction: 'desc',
  });
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZES[0]!);

  const rows = useMemo(
    () => sortCampaigns(filterCampaigns(campaigns, search), sort),
    [campaigns, search, sort],
  );
  // A new search, sort or page size could leave the page past the end: clamp it.
  const lastPage = Math.max(1, Math.ceil(rows.length / pageSize));
  const currentPage = Math.min(page, lastPage);
  const pageRows = rows.slice((currentPage - 1) * pageSize, currentPage * pageSize);

  function handleSortChange(status: DataTableSortStatus<Campaign>) {
    const column = status.columnAccessor as CampaignSortKey;
    // A newly chosen column starts ascending (the library would keep the old direction).
    setSort({
      columnAccessor: column,
      direction: column === sort.columnAccessor ? status.direction : 'asc',
    });
    setPage(1);
  }

  return (
    <DataTable<Campaign>
      aria-label="Your Campaigns"
      withTableBorder
      borderRadius="md"
      striped
      highlightOnHover
      verticalAlign="top"
      minHeight={rows.length === 0 ? 160 : undefined}
      // Wide enough that cells do not wrap word by word on a phone; the table scrolls instead.
      styles={{ table: { minWidth: 880 } }}
      records={pageRows}
      columns={columns}
      idAccessor="id"
      sortStatus={sort as DataTableSortStatus<Campaign>}
      onSortStatusChange={handleSortChange}
      totalRecords={rows.length}
      recordsPerPage={pageSize}
      page={currentPage}
      onPageChange={setPage}
      recordsPerPageOptions={PAGE_SIZES}
      onRecordsPerPageChange={(size) => {
        setPageSize(size);
        setPage(1);
      }}
      recordsPerPageLabel="Campaigns per page"
      paginationText={({ from, to, totalRecords }) => `${from}–${to} of ${totalRecords}`}
      getPaginationControlProps={(control) => ({ 'aria-label': paginationLabels[control] })}
      noRecordsText="No campaigns match your search."
    />
  );
}
