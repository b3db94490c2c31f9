import 'mantine-datatable/styles.css';
import { Text } from '@mantine/core';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import type { Campaign, CampaignSortKey } from '../../../../contract/buyer.ts';
import { formatDate, formatMoney } from '../../../lib/format.ts';
import { type CampaignSort, formatDay } from '../campaign-rows.ts';

export const CAMPAIGN_PAGE_SIZES = [10, 25, 50];

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
  /** The current page, as the server searched, sorted and paged it. */
  records: Campaign[];
  total: number;
  page: number;
  pageSize: number;
  sort: CampaignSort;
  /** A later load (new page, sort or search): the current rows stay, dimmed. */
  fetching: boolean;
  onSortChange: (sort: CampaignSort) => void;
  onPageChange: (page: number) => void;
  onPageSizeChange: (size: number) => void;
};

/** 'Your Campaigns': one page of the list; the server searches, sorts and pages it. */
export function CampaignsTable(props: CampaignsTableProps) {
  const { sort, onSortChange } = props;

  function handleSortChange(status: DataTableSortStatus<Campaign>) {
    const column = status.columnAccessor as CampaignSortKey;
    // A newly chosen column starts ascending (the library would keep the old direction).
    onSortChange({
      columnAccessor: column,
      direction: column === sort.columnAccessor ? status.direction : 'asc',
    });
  }

  return (
    <DataTable<Campaign>
      aria-label="Your Campaigns"
      aria-busy={props.fetching || undefined}
      withTableBorder
      borderRadius="md"
      striped
      highlightOnHover
      verticalAlign="top"
      minHeight={props.records.length === 0 ? 160 : undefined}
      // Wide enough that cells do not wrap word by word on a phone; the table scrolls instead.
      styles={{ table: { minWidth: 880 } }}
      style={{ opacity: props.fetching ? 0.6 : 1, transition: 'opacity 150ms' }}
      records={props.records}
      columns={columns}
      idAccessor="id"
      sortStatus={sort as DataTableSortStatus<Campaign>}
      onSortStatusChange={handleSortChange}
      totalRecords={props.total}
      recordsPerPage={props.pageSize}
      page={props.page}
      onPageChange={props.onPageChange}
      recordsPerPageOptions={CAMPAIGN_PAGE_SIZES}
      onRecordsPerPageChange={props.onPageSizeChange}
      recordsPerPageLabel="Campaigns per page"
      paginationText={({ from, to, totalRecords }) => `${from}–${to} of ${totalRecords}`}
      getPaginationControlProps={(control) => ({ 'aria-label': paginationLabels[control] })}
      noRecordsText="No campaigns match your search."
    />
  );
}
