import { Group, Stack, Text, Title } from '@mantine/core';
import type { DataTableColumn, DataTableSortStatus } from 'mantine-datatable';
import { useState } from 'react';
import type { PayoutSort, PublisherPayout } from '../../../../contract/publisher.ts';
import { useErrorToast } from '../../../components/use-error-toast.ts';
import { formatDate, formatMoney } from '../../../lib/format.ts';
import { usePayouts } from '../api/list-payouts.ts';
import { PagedTable } from './paged-table.tsx';

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

/** The server's sort key of each sortable column. */
const sortKeys: Record<string, PayoutSort> = { date: 'date', amount: 'amount' };
const NEWEST_FIRST: DataTableSortStatus<PublisherPayout> = {
  columnAccessor: 'date',
  direction: 'desc',
};

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
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  const [sort, setSort] = useState(NEWEST_FIRST);
  const payouts = usePayouts({
    page,
    page_size: pageSize,
    sort: sortKeys[String(sort.columnAccessor)] ?? 'date',
    order: sort.direction,
  });
  useErrorToast(payouts.error, ERROR_TITLE);

  return (
    <Stack gap="lg">
      <Title order={1}>Payouts</Title>
      <PagedTable<PublisherPayout>
        label="Payouts"
        columns={columns}
        rowId={(p) => p.id}
        records={payouts.data?.items}
        total={payouts.data?.total ?? 0}
        page={page}
        pageSize={pageSize}
        onPageChange={setPage}
        onPageSizeChange={(n) => {
          setPageSize(n);
          setPage(1);
        }}
        loading={payouts.isPending}
        fetching={payouts.isFetching && !payouts.isPending}
        error={payouts.error}
        errorTitle={ERROR_TITLE}
        onRetry={() => payouts.refetch()}
        emptyTitle="No payouts yet."
        emptyText="Payouts the network sends you are listed here with their amount, date and notes."
        sortStatus={sort}
        onSortStatusChange={(next) => {
          setSort(next);
          setPage(1);
        }}
        renderCard={(p) => <PayoutCard payout={p} />}
      />
    </Stack>
  );
}
