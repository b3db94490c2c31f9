import type { Campaign } from '@contract/buyer.ts';
import { Button, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { formatDate, formatDay, formatMoney } from '@/lib/format.ts';

function dash(value: string | null) {
  return value?.trim() ? value : '—';
}

/**
 * The columns of 'Your Campaigns'; each is named by the server's sort key. Every day (start,
 * end, created) is written by the shared date helper, as YYYY-MM-DD.
 */
export const campaignColumns = (onEdit: (c: Campaign) => void): DataTableColumn<Campaign>[] => [
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
  {
    accessor: 'actions',
    title: 'Actions',
    textAlign: 'right',
    render: (c) => (
      <Button size="xs" variant="light" onClick={() => onEdit(c)} aria-label={`Edit ${c.name}`}>
        Edit
      </Button>
    ),
  },
];
