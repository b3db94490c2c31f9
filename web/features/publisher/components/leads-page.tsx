import { Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconFilterOff } from '@tabler/icons-react';
import type { DataTableColumn, DataTableSortStatus } from 'mantine-datatable';
import { useState } from 'react';
import { isRealDate } from '../../../../contract/list.ts';
import type { LeadSort, PublisherLead } from '../../../../contract/publisher.ts';
import type { LeadStatus } from '../../../../contract/roles.ts';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { useErrorToast } from '../../../components/use-error-toast.ts';
import { formatDateTime, formatDuration, formatMoney } from '../../../lib/format.ts';
import { useLeads } from '../api/list-leads.ts';
import { PagedTable } from './paged-table.tsx';

const ERROR_TITLE = 'Error loading leads';
const RANGE_ERROR = 'The start date cannot be after the end date.';

const columns: DataTableColumn<PublisherLead>[] = [
  {
    accessor: 'timestamp',
    title: 'Time',
    sortable: true,
    render: (l) => formatDateTime(l.timestamp),
    noWrap: true,
  },
  { accessor: 'offer_title', title: 'Offer', sortable: true },
  {
    accessor: 'status',
    title: 'Status',
    sortable: true,
    render: (l) => <StatusBadge status={l.status} />,
  },
  {
    accessor: 'call_duration',
    title: 'Duration',
    sortable: true,
    textAlign: 'right',
    render: (l) => formatDuration(l.call_duration),
    noWrap: true,
  },
  {
    accessor: 'payout',
    title: 'Payout',
    sortable: true,
    textAlign: 'right',
    render: (l) => formatMoney(l.payout),
    noWrap: true,
  },
];

/** The server's sort key of each sortable column. */
const sortKeys: Record<string, LeadSort> = {
  timestamp: 'timestamp',
  offer_title: 'offer',
  status: 'status',
  call_duration: 'call_duration',
  payout: 'payout',
};
const NEWEST_FIRST: DataTableSortStatus<PublisherLead> = {
  columnAccessor: 'timestamp',
  direction: 'desc',
};

/** A lead as a phone-width card. */
function LeadCard({ lead }: { lead: PublisherLead }) {
  return (
    <Stack gap={6}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {lead.offer_title}
        </Text>
        <StatusBadge status={lead.status} />
      </Group>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {formatDateTime(lead.timestamp)}
        </Text>
        <Text size="sm">
          {formatDuration(lead.call_duration)} · <b>{formatMoney(lead.payout)}</b>
        </Text>
      </Group>
    </Stack>
  );
}

/** /dashboard/leads: 'My Leads' with status and date filters, sorting and pages (all on the server). */
export function LeadsPage() {
  const [status, setStatus] = useState<LeadStatus | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  const [sort, setSort] = useState(NEWEST_FIRST);

  const fromOk = from === '' || isRealDate(from);
  const toOk = to === '' || isRealDate(to);
  const rangeError = fromOk && toOk && from && to && from > to ? RANGE_ERROR : null;
  // Only a complete, consistent filter is sent; the inline errors explain the rest.
  const filters =
    fromOk && toOk && !rangeError
      ? { from: from || undefined, to: to || undefined }
      : { from: undefined, to: undefined };
  const leads = useLeads({
    page,
    page_size: pageSize,
    status: status ?? undefined,
    ...filters,
    sort: sortKeys[String(sort.columnAccessor)] ?? 'timestamp',
    order: sort.direction,
  });
  useErrorToast(leads.error, ERROR_TITLE);
  const filtered = Boolean(status || from || to);

  function resetPage<T>(set: (v: T) => void) {
    return (v: T) => {
      set(v);
      setPage(1);
    };
  }

  return (
    <Stack gap="lg">
      <Title order={1}>My Leads</Title>
      <Group gap="sm" align="flex-start" wrap="wrap">
        <Select
          label="Status"
          placeholder="All statuses"
          data={[
            { value: 'approved', label: 'Approved' },
            { value: 'pending', label: 'Pending' },
            { value: 'rejected', label: 'Rejected' },
          ]}
          value={status}
          onChange={resetPage((v: string | null) => setStatus(v as LeadStatus | null))}
          clearable
          w={{ base: '100%', xs: 180 }}
        />
        <TextInput
          type="date"
          label="From"
          value={from}
          onChange={(e) => resetPage(setFrom)(e.currentTarget.value)}
          error={fromOk ? undefined : 'Use a real date.'}
          w={{ base: 'calc(50% - 6px)', xs: 180 }}
        />
        <TextInput
          type="date"
          label="To"
          value={to}
          onChange={(e) => resetPage(setTo)(e.currentTarget.value)}
          error={!toOk ? 'Use a real date.' : (rangeError ?? undefined)}
          w={{ base: 'calc(50% - 6px)', xs: 180 }}
        />
        {filtered ? (
          <Button
            variant="subtle"
            leftSection={<IconFilterOff size={16} />}
            mt={{ base: 0, xs: 25 }}
            onClick={() => {
              setStatus(null);
              setFrom('');
              setTo('');
              setPage(1);
            }}
          >
            Clear filters
          </Button>
        ) : null}
      </Group>
      {leads.data && leads.data.total > 0 ? (
        <Text size="sm" c="dimmed">
          {leads.data.total} {leads.data.total === 1 ? 'lead' : 'leads'}
          {filtered ? ' match these filters.' : '.'}
        </Text>
      ) : null}
      <PagedTable<PublisherLead>
        label="My Leads"
        columns={columns}
        rowId={(l) => l.id}
        records={leads.data?.items}
        total={leads.data?.total ?? 0}
        page={page}
        pageSize={pageSize}
        onPageChange={setPage}
        onPageSizeChange={(n) => {
          setPageSize(n);
          setPage(1);
        }}
        loading={leads.isPending}
        fetching={leads.isFetching && !leads.isPending}
        error={leads.error}
        errorTitle={ERROR_TITLE}
        onRetry={() => leads.refetch()}
        emptyTitle={filtered ? 'No leads match these filters.' : 'No leads yet.'}
        emptyText={
          filtered
            ? 'Try another status or a wider date range.'
            : 'Leads from your calls appear here with their status, duration and payout.'
        }
        sortStatus={sort}
        onSortStatusChange={resetPage(setSort)}
        renderCard={(l) => <LeadCard lead={l} />}
      />
    </Stack>
  );
}
