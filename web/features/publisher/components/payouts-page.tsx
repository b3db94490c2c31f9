import type { PublisherPayout } from '@contract/publisher.ts';
import { Group, Stack, Text, Title } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { PagedTable } from '@/components/paged-table.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import { usePayouts } from '@/features/publisher/api/list-payouts.ts';
import { formatDate, formatMoney } from '@/lib/format.ts';

const ERROR_TITLE = 'Error loading payouts';

const columns: DataTableColumn<PublisherPayout>[] = [
  {
    accessor: 'date',
    title: 'Date',
    sortable: true,
    render: (p) => formatDate(p.date),
    noWrap: true,
  },
  {
    accessor: 'amount',
    title: 'Amount',
    sortable: true,
    textAlign: 'right',
    render: (p) => formatMoney(p.amount),
    noWrap: true,
  },
  {
    accessor: 'notes',
    title: 'Notes',
    render: (p) =>
      p.notes ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {p.notes}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          —
        </Text>
      ),
  },
];

/** Sortable columns (the server's sort keys) and the direction of their first click. */
const sorts = { date: 'desc', amount: 'desc' } as const;

/** A payout as a phone-width card. */
function PayoutCard({ payout }: { payout: PublisherPayout }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text fw={700}>{formatMoney(payout.amount)}</Text>
        <Text size="sm" c="dimmed">
          {formatDate(payout.date)}
        </Text>
      </Group>
      {payout.notes ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {payout.notes}
        </Text>
      ) : null}
    </Stack>
  );
}

/** /dashboard/payouts: the payouts recorded for this publisher, newest first unless sorted otherwise. */
export function PayoutsPage() {
  const list = useListParams({ sort: 'date', order: 'desc', sorts });
  const payouts = usePayouts(list.query);

  return (
    <Stack gap="lg">
      <Title order={1}>Payouts</Title>
      <PagedTable<PublisherPayout>
        label="Payouts"
        columns={columns}
        list={list}
        query={payouts}
        errorTitle={ERROR_TITLE}
        emptyTitle="No payouts yet."
        emptyText="Payouts the network sends you are listed here with their amount, date and notes."
        renderCard={(p) => <PayoutCard payout={p} />}
      />
    </Stack>
  );
}
