import type { CallReturn } from '@contract/buyer-calls.ts';
import { Badge, Button, Stack, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { DimmedNote } from '@/components/dimmed-note.tsx';
import { dateColumn, personColumn, RowActions } from '@/components/lists/columns.tsx';
import { ListPage } from '@/components/lists/list-page.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import { useDecideReturn, useReturns } from '@/features/admin/returns/api/returns.ts';
import { formatMoney } from '@/lib/format.ts';
import { failedToast, toast } from '@/lib/notify.ts';

const sorts = { created_at: 'desc' } as const;

/** Accept (the price is credited back to the buyer) or decline a pending return. */
function Decide({ r }: { r: CallReturn }) {
  const accept = useDecideReturn('accept');
  const decline = useDecideReturn('decline');
  const decide = (m: typeof accept, what: string) =>
    m.mutate(
      { id: r.id },
      {
        onSuccess: () => toast({ title: `Return ${what}` }),
        onError: failedToast('Could not decide'),
      },
    );
  if (r.status !== 'pending') return null;
  const choices = [
    { mutation: accept, label: 'Accept', done: 'accepted', look: { variant: 'light' } },
    {
      mutation: decline,
      label: 'Decline',
      done: 'declined',
      look: { variant: 'subtle', color: 'red' },
    },
  ] as const;
  return (
    <RowActions gap={4}>
      {choices.map((c) => (
        <Button
          key={c.label}
          size="xs"
          {...c.look}
          loading={c.mutation.isPending}
          onClick={() => decide(c.mutation, c.done)}
        >
          {c.label}
        </Button>
      ))}
    </RowActions>
  );
}

/** /admin/returns: the buyers' returns of calls (issue 31), accepted with a credit or declined. */
export function ReturnsPage() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, []);
  const query = useReturns(list.query);
  const columns: DataTableColumn<CallReturn>[] = [
    dateColumn('created_at', 'Returned', (r) => r.created_at),
    personColumn('buyer_email', 'Buyer and campaign', (r) => ({
      name: r.campaign_name,
      email: r.buyer_email,
    })),
    {
      accessor: 'reason',
      title: 'Reason',
      render: (r) => (
        <Stack gap={0} maw={320}>
          <Text size="sm">{r.reason}</Text>
          <DimmedNote>{r.note}</DimmedNote>
        </Stack>
      ),
    },
    {
      accessor: 'amount',
      title: 'Price',
      textAlign: 'right',
      render: (r) => formatMoney(r.amount),
    },
    {
      accessor: 'status',
      title: 'Status',
      render: (r) => (
        <Badge
          color={r.status === 'accepted' ? 'green' : r.status === 'declined' ? 'red' : 'yellow'}
          variant="light"
        >
          {r.status}
        </Badge>
      ),
    },
    { accessor: 'actions', title: '', textAlign: 'right', render: (r) => <Decide r={r} /> },
  ];
  return (
    <ListPage<CallReturn>
      title="Returns"
      description="Calls buyers returned: accepting credits the price back to the buyer. The publisher's payout is decided on the lead."
      errorTitle="Error fetching returns"
      empty="No buyer has returned a call yet."
      columns={columns}
      list={list}
      query={query}
      minWidth={720}
    />
  );
}
