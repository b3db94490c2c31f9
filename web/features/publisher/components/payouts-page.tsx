import { PAYMENT_METHOD_LABELS, PAYOUT_STATUS_LABELS, TAX_FORM_LABELS } from '@contract/money.ts';
import type { PublisherPayout } from '@contract/publisher.ts';
import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Pagination,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { Link } from 'react-router';
import { publisherPaths } from '@/app/routes.ts';
import { BalanceCards } from '@/components/balance-cards.tsx';
import { dateColumn } from '@/components/lists/columns.tsx';
import { PagedTable } from '@/components/paged-table.tsx';
import { useErrorToast } from '@/components/use-error-toast.ts';
import { useListParams } from '@/components/use-list-params.ts';
import { usePayouts } from '@/features/publisher/api/list-payouts.ts';
import {
  useDownloadStatement,
  usePayoutLeads,
  usePublisherMoney,
} from '@/features/publisher/api/money.ts';
import { formatDate, formatDateTime, formatMoney } from '@/lib/format.ts';
import { failedToast } from '@/lib/notify.ts';
import { TaxFormCard } from './tax-form-card.tsx';

const ERROR_TITLE = 'Error loading payouts';

/** Sortable columns (the server's sort keys) and the direction of their first click. */
const sorts = { date: 'desc', amount: 'desc' } as const;

const periodOf = (p: PublisherPayout) =>
  p.period_from || p.period_to ? `${p.period_from ?? '…'} – ${p.period_to ?? '…'}` : '—';

function StatusBadge({ payout }: { payout: PublisherPayout }) {
  return payout.status === 'paid' ? (
    <Stack gap={0}>
      <Badge color="teal" variant="light">
        {PAYOUT_STATUS_LABELS.paid}
      </Badge>
      {payout.reference ? (
        <Text size="xs" c="dimmed">
          Ref. {payout.reference}
        </Text>
      ) : null}
    </Stack>
  ) : (
    <Badge color="orange" variant="light">
      {PAYOUT_STATUS_LABELS.recorded}
    </Badge>
  );
}

function PayoutActions({
  payout,
  onLeads,
}: {
  payout: PublisherPayout;
  onLeads: (p: PublisherPayout) => void;
}) {
  const download = useDownloadStatement();
  const get = (format: 'pdf' | 'csv') =>
    download.mutate(
      { id: payout.id, format },
      {
        onError: failedToast('Download failed'),
      },
    );
  const when = formatDate(payout.date);
  return (
    <Group gap={6} wrap="nowrap">
      <Button
        size="compact-sm"
        variant="light"
        onClick={() => get('pdf')}
        aria-label={`Statement PDF of the payout of ${when}`}
      >
        Statement PDF
      </Button>
      <Button
        size="compact-sm"
        variant="subtle"
        onClick={() => get('csv')}
        aria-label={`Statement CSV of the payout of ${when}`}
      >
        CSV
      </Button>
      <Button
        size="compact-sm"
        variant="subtle"
        onClick={() => onLeads(payout)}
        aria-label={`Leads of the payout of ${when}`}
      >
        Leads
      </Button>
    </Group>
  );
}

/** The leads one payout covered, in a dialog, page by page. */
function CoveredLeadsModal({
  payout,
  onClose,
}: {
  payout: PublisherPayout | null;
  onClose: () => void;
}) {
  const [page, setPage] = useState(1);
  const leads = usePayoutLeads(payout?.id ?? null, page);
  const data = leads.data;
  return (
    <Modal
      opened={payout !== null}
      onClose={() => {
        setPage(1);
        onClose();
      }}
      title={payout ? `Leads paid by the payout of ${formatDate(payout.date)}` : ''}
      size="lg"
    >
      {data && data.items.length === 0 ? (
        <Text c="dimmed">
          This payout pays no leads: it is an advance, a bonus or a correction (see its statement).
        </Text>
      ) : (
        <Table striped aria-label="Leads of this payout">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Date</Table.Th>
              <Table.Th>Offer</Table.Th>
              <Table.Th>Line</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(data?.items ?? []).map((l) => (
              <Table.Tr key={`${l.id}-${l.kind}`}>
                <Table.Td>
                  <Anchor component={Link} to={publisherPaths.lead(l.id)}>
                    {formatDateTime(l.timestamp)}
                  </Anchor>
                </Table.Td>
                <Table.Td>{l.offer_title}</Table.Td>
                <Table.Td>{l.kind === 'lead' ? 'Paid' : 'Taken back'}</Table.Td>
                <Table.Td ta="right">{formatMoney(l.amount)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {data && data.total > data.page_size ? (
        <Group justify="center" mt="md">
          <Pagination
            value={page}
            onChange={setPage}
            total={Math.ceil(data.total / data.page_size)}
            aria-label="Pages of leads"
          />
        </Group>
      ) : null}
    </Modal>
  );
}

/** /dashboard/payouts: the balance, then every payout with its statement and covered leads. */
export function PayoutsPage() {
  const list = useListParams({ sort: 'date', order: 'desc', sorts });
  const payouts = usePayouts(list.query);
  const money = usePublisherMoney();
  useErrorToast(money.error, ERROR_TITLE);
  const [leadsOf, setLeadsOf] = useState<PublisherPayout | null>(null);
  const b = money.data?.balance;
  const payment = money.data?.payment;

  const columns: DataTableColumn<PublisherPayout>[] = [
    dateColumn('date', 'Date', (p) => p.date, { sortable: true }),
    {
      accessor: 'amount',
      title: 'Amount',
      sortable: true,
      textAlign: 'right',
      render: (p) => formatMoney(p.amount),
      noWrap: true,
    },
    { accessor: 'status', title: 'Status', render: (p) => <StatusBadge payout={p} /> },
    { accessor: 'period_from', title: 'Leads of', render: periodOf, noWrap: true },
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
    {
      accessor: 'id',
      title: 'Statement',
      render: (p) => (
        <Stack gap={4}>
          {p.statement_number ? (
            <Text size="sm" ff="monospace">
              {p.statement_number}
            </Text>
          ) : null}
          <PayoutActions payout={p} onLeads={setLeadsOf} />
        </Stack>
      ),
    },
  ];

  return (
    <Stack gap="lg">
      <Title order={1}>Payouts</Title>
      <BalanceCards balance={b} loading={money.isPending} audience="publisher" />
      <Card withBorder padding="md" radius="md" component="section" aria-label="Payment details">
        <Group justify="space-between" wrap="wrap">
          <Text size="sm">
            {payment?.method
              ? `Paid by ${PAYMENT_METHOD_LABELS[payment.method]} to ${payment.account}. Tax form: ${TAX_FORM_LABELS[payment.tax_form_status]}.`
              : 'No payment details yet: tell the network how to pay you.'}
            {money.data ? ` Payouts start at ${formatMoney(money.data.min_payout)} owed.` : ''}
          </Text>
          <Button component={Link} to={publisherPaths.profile} variant="light" size="sm">
            Payment details
          </Button>
        </Group>
      </Card>
      <TaxFormCard />
      <PagedTable<PublisherPayout>
        label="Payouts"
        columns={columns}
        list={list}
        query={payouts}
        errorTitle={ERROR_TITLE}
        emptyTitle="No payouts yet."
        emptyText="Payouts the network sends you are listed here with their statement and the leads they paid."
        renderCard={(p) => (
          <Stack gap={4}>
            <Group justify="space-between">
              <Text fw={700}>{formatMoney(p.amount)}</Text>
              <Text size="sm" c="dimmed">
                {formatDate(p.date)}
              </Text>
            </Group>
            <StatusBadge payout={p} />
            {p.statement_number ? (
              <Text size="sm" ff="monospace">
                Statement {p.statement_number}
              </Text>
            ) : null}
            <PayoutActions payout={p} onLeads={setLeadsOf} />
          </Stack>
        )}
      />
      <CoveredLeadsModal payout={leadsOf} onClose={() => setLeadsOf(null)} />
    </Stack>
  );
}
