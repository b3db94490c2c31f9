import '@mantine/dates/styles.css';
import { Button, Group, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconDownload, IconPlus } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { AdminPayout } from '../../../../../contract/admin.ts';
import { PageHeader } from '../../../../components/page-header.tsx';
import { PagedTable } from '../../../../components/paged-table.tsx';
import { useErrorToast } from '../../../../components/use-error-toast.ts';
import { useListParams } from '../../../../components/use-list-params.ts';
import { formatDateTime, formatMoney } from '../../../../lib/format.ts';
import { toast } from '../../../../lib/notify.ts';
import { PublisherSelect } from '../../leads/components/search-select.tsx';
import { useExportPayoutsCsv } from '../api/export-payouts-csv.ts';
import { type PayoutFilterParams, usePayouts } from '../api/list-payouts.ts';
import { PayoutFormModal } from './payout-form-modal.tsx';

const sorts = ['date', 'amount'] as const;
const filterNames = ['publisher_id', 'from', 'to'] as const;

/** /admin/payouts: payouts with publisher names, filters, sorting, paging, CSV, and recording. */
export function PayoutsPage() {
  const list = useListParams({ sort: 'date', order: 'desc', sorts }, filterNames);
  const [formOpen, setFormOpen] = useState(false);
  const exportMutation = useExportPayoutsCsv();
  const [, setParams] = useSearchParams();

  const { publisher_id, from, to } = list.filters;
  const filters: PayoutFilterParams = {
    sort: list.sort,
    order: list.order,
    publisher_id: publisher_id || undefined,
    from: from || undefined,
    to: to || undefined,
  };
  const query = usePayouts({ ...filters, page: list.page, page_size: list.pageSize });
  useErrorToast(query.error, 'Error loading payouts');
  const filtered = Boolean(publisher_id || from || to);

  function handleExport() {
    exportMutation.mutate(filters, {
      onError: (err) =>
        toast({ title: 'Export failed', description: err.message, variant: 'destructive' }),
    });
  }

  function setRange(start: string | null, end: string | null) {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of [
          ['from', start],
          ['to', end],
        ] as const) {
          if (v) next.set(k, v);
          else next.delete(k);
        }
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  }

  const columns: DataTableColumn<AdminPayout>[] = [
    { accessor: 'date', title: 'Date', sortable: true, render: (p) => formatDateTime(p.date) },
    {
      accessor: 'publisher_name',
      title: 'Publisher',
      render: (p) => (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {p.publisher_name || '—'}
          </Text>
          <Text size="xs" c="dimmed">
            {p.publisher_email}
          </Text>
        </Stack>
      ),
    },
    {
      accessor: 'amount',
      title: 'Amount',
      sortable: true,
      textAlign: 'right',
      render: (p) => formatMoney(p.amount),
    },
    {
      accessor: 'notes',
      title: 'Notes',
      render: (p) => (
        <Text size="sm" lineClamp={2} maw={360}>
          {p.notes || '—'}
        </Text>
      ),
    },
  ];

  return (
    <Stack gap="lg">
      <PageHeader
        title="Payouts"
        description="Money paid to publishers. Record a payout when you send one."
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              onClick={handleExport}
              loading={exportMutation.isPending}
            >
              Export CSV
            </Button>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setFormOpen(true)}>
              Record Payout
            </Button>
          </>
        }
      />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <PublisherSelect
          label="Publisher"
          placeholder="All publishers"
          value={publisher_id || null}
          onChange={(v) => list.setFilter('publisher_id', v)}
          w={{ base: '100%', sm: 260 }}
        />
        <DatePickerInput
          type="range"
          label="Date range"
          placeholder="Any date"
          // Mantine's placeholder grey is below 4.5:1 on white; this one is a button's text.
          styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
          valueFormat="YYYY-MM-DD"
          clearable
          allowSingleDateInRange
          value={[from || null, to || null]}
          onChange={([start, end]) => {
            // Wait for both ends (or a clear) before filtering.
            if (start && !end) return;
            setRange(start ?? null, end ?? null);
          }}
          w={{ base: '100%', sm: 240 }}
        />
      </Group>
      <PagedTable<AdminPayout>
        label="Payouts"
        columns={columns}
        records={query.data?.items}
        total={query.data?.total ?? 0}
        page={list.page}
        pageSize={list.pageSize}
        onPageChange={list.setPage}
        onPageSizeChange={list.setPageSize}
        sortStatus={list.sortStatus<AdminPayout>()}
        onSortStatusChange={list.setSortStatus}
        isPending={query.isPending}
        isFetching={query.isFetching}
        isError={query.isError}
        errorTitle="Error loading payouts"
        errorMessage={query.error?.message}
        onRetry={() => void query.refetch()}
        emptyText={filtered ? 'No payouts match these filters.' : 'No payouts recorded yet.'}
      />
      <PayoutFormModal opened={formOpen} onClose={() => setFormOpen(false)} />
    </Stack>
  );
}
