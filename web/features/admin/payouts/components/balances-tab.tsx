import {
  PAYMENT_METHOD_LABELS,
  type PublisherBalanceRow,
  TAX_FORM_LABELS,
} from '@contract/money.ts';
import { Button, Group, Stack, Switch, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { ListFilters } from '@/components/list-filters.tsx';
import { ListSearch } from '@/components/lists/list-filter-fields.tsx';
import { PagedTable } from '@/components/paged-table.tsx';
import { PersonCell } from '@/components/person-cell.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import { useBalances } from '@/features/admin/payouts/api/money.ts';
import { formatMoney } from '@/lib/format.ts';

const sorts = { owed: 'desc', earned: 'desc', paid: 'desc', name: 'asc' } as const;
const filterNames = ['q', 'above_threshold'] as const;

/**
 * A figure's header on two lines ("In a run, / not yet paid"): with the payment details the
 * table fits a 1280 px desk (issue 34).
 */
const twoLines = (first: string, second: string) => (
  <>
    {first}
    <br />
    {second}
  </>
);

const money = (v: number) => (
  <Text size="sm" ff="monospace" ta="right">
    {formatMoney(v)}
  </Text>
);

/** Admin → Payouts → Balances: what the network owes each publisher, with payment details. */
export function BalancesTab({
  onRunSelected,
}: {
  /** Opens a payout run for the picked publishers. */
  onRunSelected: (publishers: { id: string; label: string }[]) => void;
}) {
  const [selected, setSelected] = useState<PublisherBalanceRow[]>([]);
  const list = useListParams({ sort: 'owed', order: 'desc', sorts }, filterNames);
  const { q, above_threshold } = list.filters;
  const query = useBalances({
    ...list.query,
    q: q || undefined,
    above_threshold: above_threshold === 'true' ? 'true' : undefined,
  });
  const minPayout = query.data?.min_payout;

  const columns: DataTableColumn<PublisherBalanceRow>[] = [
    {
      accessor: 'name',
      title: 'Publisher',
      sortable: true,
      render: (r) => (
        <PersonCell
          name={r.publisher_name}
          email={r.publisher_email}
          maw={{ base: 200, md: 220 }}
        />
      ),
    },
    {
      accessor: 'earned',
      title: 'Earned',
      sortable: true,
      textAlign: 'right',
      render: (r) => money(r.earned),
    },
    {
      accessor: 'pending_review',
      title: twoLines('Under', 'review'),
      textAlign: 'right',
      render: (r) => money(r.pending_review),
    },
    {
      accessor: 'recorded',
      title: twoLines('In a run,', 'not yet paid'),
      textAlign: 'right',
      render: (r) => money(r.recorded),
    },
    {
      accessor: 'paid',
      title: 'Paid',
      sortable: true,
      textAlign: 'right',
      render: (r) => money(r.paid),
    },
    {
      accessor: 'owed',
      title: twoLines('Owed', '(next run)'),
      sortable: true,
      textAlign: 'right',
      render: (r) => (
        <Text size="sm" ff="monospace" ta="right" fw={700} c={r.owed < 0 ? 'red.9' : undefined}>
          {formatMoney(r.owed)}
        </Text>
      ),
    },
    {
      accessor: 'payment',
      title: 'Payment details',
      // The account (an e-mail, an IBAN) wraps anywhere instead of widening the table.
      cellsStyle: () => ({ maxWidth: 220, overflowWrap: 'anywhere' }),
      render: (r) =>
        r.payment.method ? (
          <Stack gap={0}>
            <Text size="sm">
              {PAYMENT_METHOD_LABELS[r.payment.method]}: {r.payment.account}
            </Text>
            <Text size="xs" c="dimmed">
              Tax form: {TAX_FORM_LABELS[r.payment.tax_form_status]}
            </Text>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            Not set
          </Text>
        ),
    },
  ];

  return (
    <Stack gap="md">
      <ListFilters>
        <ListSearch list={list} name="q" placeholder="Name or e-mail" label="Publisher" />
        <Group gap="xs" align="end" pb={6}>
          <Switch
            label={`Only owed at least the minimum payout${minPayout !== undefined ? ` (${formatMoney(minPayout)})` : ''}`}
            checked={above_threshold === 'true'}
            onChange={(e) =>
              list.setFilter('above_threshold', e.currentTarget.checked ? 'true' : null)
            }
          />
        </Group>
      </ListFilters>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {selected.length
            ? `${selected.length} selected`
            : 'Select publishers to pay them in a run.'}
        </Text>
        <Button
          disabled={!selected.length}
          onClick={() =>
            onRunSelected(
              selected.map((r) => ({
                id: r.publisher_id,
                label: r.publisher_name ?? r.publisher_email,
              })),
            )
          }
        >
          Run payouts for selected
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        Owed = earned (approved leads, bonuses, corrections, clawbacks) minus paid. The minimum
        payout is a setting (Settings).
      </Text>
      <PagedTable<PublisherBalanceRow>
        label="Balances"
        columns={columns}
        list={list}
        query={query}
        phoneCards
        rowId={(r) => r.publisher_id}
        selection={{
          selected,
          onChange: setSelected,
          rowLabel: (r) => `Select ${r.publisher_name ?? r.publisher_email}`,
        }}
        errorTitle="Error loading payouts"
        emptyTitle={
          list.filtered
            ? 'No balances match these filters.'
            : 'No publisher has earned anything yet.'
        }
      />
    </Stack>
  );
}
