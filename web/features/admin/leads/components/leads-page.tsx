import '@mantine/dates/styles.css';
import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconDownload, IconPlus } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { AdminLead } from '../../../../../contract/admin.ts';
import type { LeadStatus } from '../../../../../contract/roles.ts';
import { PageHeader } from '../../../../components/page-header.tsx';
import { PagedTable } from '../../../../components/paged-table.tsx';
import { useErrorToast } from '../../../../components/use-error-toast.ts';
import { useListParams } from '../../../../components/use-list-params.ts';
import { formatDateTime, formatDuration, formatMoney } from '../../../../lib/format.ts';
import { toast } from '../../../../lib/notify.ts';
import { useExportLeadsCsv } from '../api/export-leads-csv.ts';
import { type LeadFilterParams, useLeads } from '../api/list-leads.ts';
import { LeadFormModal } from './lead-form-modal.tsx';
import { LeadStatusSelect, leadStatusOptions } from './lead-status.tsx';
import { OfferSelect, PublisherSelect } from './search-select.tsx';

const sorts = ['timestamp', 'payout', 'call_duration'] as const;
const filterNames = ['status', 'publisher_id', 'offer_id', 'from', 'to'] as const;

/** /admin/leads: every lead with filters, sorting, paging, CSV export, and recording by hand. */
export function LeadsPage() {
  const list = useListParams({ sort: 'timestamp', order: 'desc', sorts }, filterNames);
  const [formOpen, setFormOpen] = useState(false);
  const exportMutation = useExportLeadsCsv();
  const [, setParams] = useSearchParams();

  const { status, publisher_id, offer_id, from, to } = list.filters;
  const filters: LeadFilterParams = {
    sort: list.sort,
    order: list.order,
    status: (status || undefined) as LeadStatus | undefined,
    publisher_id: publisher_id || undefined,
    offer_id: offer_id || undefined,
    from: from || undefined,
    to: to || undefined,
  };
  const query = useLeads({ ...filters, page: list.page, page_size: list.pageSize });
  useErrorToast(query.error, 'Error loading leads');
  const filtered = Boolean(status || publisher_id || offer_id || from || to);

  function handleExport() {
    exportMutation.mutate(filters, {
      onError: (err) =>
        toast({ title: 'Export failed', description: err.message, variant: 'destructive' }),
    });
  }

  const columns: DataTableColumn<AdminLead>[] = [
    {
      accessor: 'timestamp',
      title: 'Date',
      sortable: true,
      render: (l) => formatDateTime(l.timestamp),
    },
    {
      accessor: 'publisher_name',
      title: 'Publisher',
      render: (l) => (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {l.publisher_name || '—'}
          </Text>
          <Text size="xs" c="dimmed">
            {l.publisher_email}
          </Text>
        </Stack>
      ),
    },
    { accessor: 'offer_title', title: 'Offer' },
    {
      accessor: 'call_duration',
      title: 'Duration',
      sortable: true,
      textAlign: 'right',
      render: (l) => formatDuration(l.call_duration),
    },
    {
      accessor: 'payout',
      title: 'Payout',
      sortable: true,
      textAlign: 'right',
      render: (l) => formatMoney(l.payout),
    },
    {
      accessor: 'status',
      title: 'Status',
      render: (l) => <LeadStatusSelect lead={l} />,
    },
  ];

  return (
    <Stack gap="lg">
      <PageHeader
        title="Leads"
        description="Every call publishers have generated. Record a lead by hand or change its status."
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
              Record Lead
            </Button>
          </>
        }
      />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Status"
          placeholder="All statuses"
          data={leadStatusOptions}
          value={status || null}
          onChange={(v) => list.setFilter('status', v)}
          clearable
          w={{ base: '100%', sm: 160 }}
        />
        <PublisherSelect
          label="Publisher"
          placeholder="All publishers"
          value={publisher_id || null}
          onChange={(v) => list.setFilter('publisher_id', v)}
          w={{ base: '100%', sm: 240 }}
        />
        <OfferSelect
          label="Offer"
          placeholder="All offers"
          value={offer_id || null}
          onChange={(v) => list.setFilter('offer_id', v)}
          w={{ base: '100%', sm: 240 }}
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
          }}
          w={{ base: '100%', sm: 240 }}
        />
      </Group>
      <PagedTable<AdminLead>
        label="Leads"
        columns={columns}
        records={query.data?.items}
        total={query.data?.total ?? 0}
        page={list.page}
        pageSize={list.pageSize}
        onPageChange={list.setPage}
        onPageSizeChange={list.setPageSize}
        sortStatus={list.sortStatus<AdminLead>()}
        onSortStatusChange={list.setSortStatus}
        isPending={query.isPending}
        isFetching={query.isFetching}
        isError={query.isError}
        errorTitle="Error loading leads"
        errorMessage={query.error?.message}
        onRetry={() => void query.refetch()}
        emptyText={filtered ? 'No leads match these filters.' : 'No leads yet.'}
      />
      <LeadFormModal opened={formOpen} onClose={() => setFormOpen(false)} />
    </Stack>
  );
}
