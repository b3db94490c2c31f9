import type { Campaign } from '@contract/buyer.ts';
import { Button, Group, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { CampaignStatusCell } from '@/components/campaigns/campaign-status.tsx';
import { dateColumn } from '@/components/lists/columns.tsx';
import { useCampaignMove } from '@/features/buyer/api/campaign-moves.ts';
import { formatDay, formatMoney } from '@/lib/format.ts';
import { failedToast } from '@/lib/notify.ts';

/** Pause or resume (issue 31): the button a campaign's status allows. */
function MoveButtons({ c }: { c: Campaign }) {
  const move = c.status === 'active' ? 'pause' : 'resume';
  const m = useCampaignMove(move);
  if (c.status !== 'active' && c.status !== 'paused') return null;
  return (
    <Button
      size="xs"
      variant="subtle"
      loading={m.isPending}
      onClick={() => m.mutate({ id: c.id }, { onError: failedToast(`Could not ${move}`) })}
    >
      {move === 'pause' ? 'Pause' : 'Resume'}
    </Button>
  );
}

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
  {
    accessor: 'status',
    title: 'Status',
    render: (c) => <CampaignStatusCell status={c.status} reason={c.status_reason} />,
  },
  {
    accessor: 'spent',
    title: 'Spent',
    textAlign: 'right',
    noWrap: true,
    render: (c) => formatMoney(c.spent),
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
  dateColumn('start_date', 'Start', (c) => c.start_date, { sortable: true, format: formatDay }),
  dateColumn('end_date', 'End', (c) => c.end_date, { sortable: true, format: formatDay }),
  dateColumn('created_at', 'Created', (c) => c.created_at, { sortable: true }),
  {
    accessor: 'actions',
    title: 'Actions',
    textAlign: 'right',
    render: (c) => (
      <Group gap={4} justify="flex-end" wrap="nowrap">
        <MoveButtons c={c} />
        <Button size="xs" variant="light" onClick={() => onEdit(c)} aria-label={`Edit ${c.name}`}>
          Edit
        </Button>
      </Group>
    ),
  },
];
