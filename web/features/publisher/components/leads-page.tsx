import { isRealDate } from '@contract/list.ts';
import type { PublisherLead } from '@contract/publisher.ts';
import type { LeadStatus } from '@contract/roles.ts';
import { Anchor, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconFilterOff } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { Link, useNavigate } from 'react-router';
import { publisherPaths } from '@/app/routes.ts';
import { activeFilterCount, FoldingFilters } from '@/components/folding-filters.tsx';
import { LeadPayout } from '@/components/lead-detail/lead-payout.tsx';
import { SearchFilter } from '@/components/list-filters.tsx';
import { RowLink } from '@/components/lists/columns.tsx';
import { NewCallsBar } from '@/components/live/new-calls-bar.tsx';
import { PagedTable } from '@/components/paged-table.tsx';
import { StatusBadge, StatusCardHead } from '@/components/status-badge.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import { useLeads } from '@/features/publisher/api/list-leads.ts';
import { formatCount, formatDateTime, formatDuration } from '@/lib/format.ts';

const ERROR_TITLE = 'Error loading leads';
const RANGE_ERROR = 'The start date cannot be after the end date.';

const columns: DataTableColumn<PublisherLead>[] = [
  {
    accessor: 'timestamp',
    title: 'Time',
    sortable: true,
    render: (l) => <RowLink to={publisherPaths.lead(l.id)}>{formatDateTime(l.timestamp)}</RowLink>,
    noWrap: true,
  },
  { accessor: 'offer', title: 'Offer', sortable: true, render: (l) => l.offer_title },
  {
    accessor: 'status',
    title: 'Status',
    sortable: true,
    render: (l) => (
      <Stack gap={2} align="flex-start">
        <StatusBadge status={l.status} />
        <RejectionReason lead={l} />
      </Stack>
    ),
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
    render: (l) => <LeadPayout payout={l.payout} status={l.status} />,
    noWrap: true,
  },
];

/**
 * Why a rejected lead does not pay, as the rules said it ("Duration 40 s under the 90 s
 * buffer"); nothing on other leads.
 */
function RejectionReason({ lead }: { lead: PublisherLead }) {
  if (lead.status !== 'rejected') return null;
  return (
    <Text size="xs" c="dimmed" maw={260} style={{ whiteSpace: 'normal' }}>
      {lead.status_reason ?? 'No reason was recorded; open the lead or ask the network.'}
    </Text>
  );
}

/** Sortable columns (the server's sort keys) and the direction of their first click. */
const sorts = {
  timestamp: 'desc',
  offer: 'asc',
  status: 'asc',
  call_duration: 'desc',
  payout: 'desc',
} as const;
const filterNames = ['q', 'status', 'from', 'to'] as const;

/** A lead as a phone-width card. */
function LeadCard({ lead }: { lead: PublisherLead }) {
  return (
    <Stack gap={6}>
      <StatusCardHead title={lead.offer_title} status={lead.status} />
      <RejectionReason lead={lead} />
      <Group justify="space-between">
        <Anchor component={Link} to={publisherPaths.lead(lead.id)} size="sm">
          {formatDateTime(lead.timestamp)}
        </Anchor>
        <Text size="sm">
          {formatDuration(lead.call_duration)} ·{' '}
          <b>
            <LeadPayout payout={lead.payout} status={lead.status} />
          </b>
        </Text>
      </Group>
    </Stack>
  );
}

/** /dashboard/leads: 'My Leads' with status and date filters, sorting and pages (all on the server). */
export function LeadsPage() {
  const list = useListParams({ sort: 'timestamp', order: 'desc', sorts }, filterNames);
  const navigate = useNavigate();
  const { q, status, from, to } = list.filters;

  const fromOk = from === '' || isRealDate(from);
  const toOk = to === '' || isRealDate(to);
  const rangeError = fromOk && toOk && from && to && from > to ? RANGE_ERROR : null;
  // Only a complete, consistent filter is sent; the inline errors explain the rest.
  const dates =
    fromOk && toOk && !rangeError
      ? { from: from || undefined, to: to || undefined }
      : { from: undefined, to: undefined };
  const leads = useLeads({
    ...list.query,
    q: q || undefined,
    status: (status || undefined) as LeadStatus | undefined,
    ...dates,
  });
  /** The From or To date box, with its own message. */
  const dateFilter = (name: 'from' | 'to', label: string, error: string | undefined) => (
    <TextInput
      type="date"
      label={label}
      value={list.filters[name]}
      onChange={(e) => list.setFilter(name, e.currentTarget.value)}
      error={error}
      w={{ base: 'calc(50% - 6px)', xs: 180 }}
    />
  );

  return (
    <Stack gap="lg">
      <Title order={1}>My Leads</Title>
      <NewCallsBar />
      <FoldingFilters count={activeFilterCount(list.filters)}>
        <Group gap="sm" align="flex-start" wrap="wrap">
          <SearchFilter
            label="Call id"
            placeholder="The tracker's call id"
            value={q}
            onSearch={(v) => list.setFilter('q', v || null)}
            w={220}
          />
          <Select
            label="Status"
            placeholder="All statuses"
            data={[
              { value: 'approved', label: 'Approved' },
              { value: 'pending', label: 'Pending' },
              { value: 'rejected', label: 'Rejected' },
            ]}
            value={status || null}
            onChange={(v) => list.setFilter('status', v)}
            clearable
            w={{ base: '100%', xs: 180 }}
          />
          {dateFilter('from', 'From', fromOk ? undefined : 'Use a real date.')}
          {dateFilter('to', 'To', !toOk ? 'Use a real date.' : (rangeError ?? undefined))}
          {list.filtered ? (
            <Button
              variant="subtle"
              leftSection={<IconFilterOff size={16} />}
              mt={{ base: 0, xs: 25 }}
              onClick={() => list.setFilters({ q: null, status: null, from: null, to: null })}
            >
              Clear filters
            </Button>
          ) : null}
        </Group>
      </FoldingFilters>
      {leads.data && leads.data.total > 0 ? (
        <Text size="sm" c="dimmed">
          {formatCount(leads.data.total, leads.data.total_exact)}{' '}
          {leads.data.total === 1 ? 'lead' : 'leads'}
          {list.filtered ? ' match these filters.' : '.'}
        </Text>
      ) : null}
      <PagedTable<PublisherLead>
        label="My Leads"
        columns={columns}
        list={list}
        query={leads}
        errorTitle={ERROR_TITLE}
        emptyTitle={list.filtered ? 'No leads match these filters.' : 'No leads yet.'}
        emptyText={
          list.filtered
            ? 'Try another status or a wider date range.'
            : 'Leads from your calls appear here with their status, duration and payout.'
        }
        renderCard={(l) => <LeadCard lead={l} />}
        onRowClick={(l) => navigate(publisherPaths.lead(l.id))}
      />
    </Stack>
  );
}
