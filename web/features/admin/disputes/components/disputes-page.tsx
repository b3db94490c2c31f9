import type { AdminDisputeItem, DisputeStatus } from '@contract/lead-detail.ts';
import { Anchor, Group, Stack, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { Link, useNavigate } from 'react-router';
import { adminPaths } from '@/app/routes.ts';
import { useDisputes } from '@/components/lead-detail/disputes-api.ts';
import { DisputeStatusBadge } from '@/components/lead-detail/lead-detail-parts.tsx';
import { SelectFilter } from '@/components/list-filters.tsx';
import { dateColumn, publisherAndOfferColumns } from '@/components/lists/columns.tsx';
import { ListPage } from '@/components/lists/list-page.tsx';
import { StatusBadge } from '@/components/status-badge.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import { formatDateTime, formatMoney } from '@/lib/format.ts';

const sorts = { updated_at: 'desc' } as const;
const filterNames = ['status'] as const;
const statusOptions: { value: DisputeStatus; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'accepted', label: 'Accepted' },
  { value: 'declined', label: 'Declined' },
];

function LastMessage({ d }: { d: AdminDisputeItem }) {
  return (
    <Text size="sm" lineClamp={2} maw={420} style={{ overflowWrap: 'anywhere' }}>
      <Text span size="xs" c="dimmed" fw={600}>
        {d.last_author === 'admin' ? 'You: ' : 'Publisher: '}
      </Text>
      {d.last_message}
    </Text>
  );
}

/** A dispute as a phone-width card. */
function DisputeCard({ d }: { d: AdminDisputeItem }) {
  return (
    <Stack gap={6}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        {/* The card's way in (a phone has no clickable row): the lead, where it is answered. */}
        <Anchor
          component={Link}
          to={adminPaths.lead(d.lead_id)}
          fw={600}
          style={{ overflowWrap: 'anywhere' }}
        >
          {d.offer_title}
        </Anchor>
        <StatusBadge status={d.lead_status} subject="lead" />
      </Group>
      <Text size="sm" c="dimmed">
        {d.publisher_name || d.publisher_email} · {formatDateTime(d.updated_at)}
      </Text>
      <LastMessage d={d} />
    </Stack>
  );
}

/** /admin/disputes: publishers' disputes of their leads, open ones by default. */
export function DisputesPage() {
  const list = useListParams({ sort: 'updated_at', order: 'desc', sorts }, filterNames);
  const navigate = useNavigate();
  const status = (list.filters.status || 'open') as DisputeStatus;
  const query = useDisputes({ ...list.query, status });

  const columns: DataTableColumn<AdminDisputeItem>[] = [
    dateColumn('updated_at', 'Last activity', (d) => d.updated_at, {
      sortable: true,
      format: formatDateTime,
      link: (d) => adminPaths.lead(d.lead_id),
    }),
    ...publisherAndOfferColumns(),
    {
      accessor: 'lead_status',
      title: 'Lead',
      render: (d) => (
        <Group gap={6} wrap="nowrap">
          <StatusBadge status={d.lead_status} subject="lead" />
          <Text size="sm">{formatMoney(d.lead_payout)}</Text>
        </Group>
      ),
    },
    { accessor: 'last_message', title: 'Latest message', render: (d) => <LastMessage d={d} /> },
    {
      accessor: 'status',
      title: 'Dispute',
      render: (d) => <DisputeStatusBadge status={d.status} />,
    },
  ];

  return (
    <ListPage<AdminDisputeItem>
      title="Disputes"
      description="Publishers asking for a rejected or unpaid lead to pay. Open one to answer, accept or decline."
      filters={
        // The list shows open disputes until another status is picked: the box says which.
        <SelectFilter
          label="Status"
          placeholder="Open"
          data={statusOptions}
          value={status}
          onChange={(v) => list.setFilter('status', v)}
          w={160}
        />
      }
      emptyTitle={status === 'open' ? 'No open disputes.' : `No ${status} disputes.`}
      emptyText={status === 'open' ? 'When a publisher disputes a lead, it shows here.' : undefined}
      columns={columns}
      list={list}
      query={query}
      onRowClick={(d) => navigate(adminPaths.lead(d.lead_id))}
      renderCard={(d) => <DisputeCard d={d} />}
    />
  );
}
