import type { AdminPublisher } from '@contract/admin.ts';
import { publisherRejectReasons } from '@contract/review-reasons.ts';
import { Stack } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { useNavigate } from 'react-router';
import { adminPaths } from '@/app/routes.ts';
import { DimmedNote } from '@/components/dimmed-note.tsx';
import { EmailText } from '@/components/email-text.tsx';
import { useBulkDecision } from '@/components/lists/bulk-decision.tsx';
import { accountColumns, actionsColumn, RowActions, RowLink } from '@/components/lists/columns.tsx';
import { ListSearchAndStatus } from '@/components/lists/list-filter-fields.tsx';
import { ListPage } from '@/components/lists/list-page.tsx';
import { fromWide } from '@/components/paged-table.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import {
  type PublisherListParams,
  usePublishers,
} from '@/features/admin/publishers/api/list-publishers.ts';
import { useBulkDecidePublishers } from '@/features/admin/publishers/api/update-publisher-status.ts';
import { AgreementUploadButton } from './agreement-upload-button.tsx';
import { PublisherStatusActions } from './publisher-status-actions.tsx';

/** Sortable columns and the direction of their first click. */
const sorts = { created_at: 'desc', name: 'asc', email: 'asc', status: 'asc' } as const;
const filterNames = ['q', 'status'] as const;
const statusFilterOptions = [
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'active', label: 'Active (legacy)' },
  { value: 'blocked', label: 'Blocked' },
];

/** /admin/publishers: search, status filter, sorting, paging; approve, reject, block, agreements. */
export function PublishersPage() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  const navigate = useNavigate();
  // Pending sign-ups can be picked and decided together (issue 16), with one reason.
  const bulk = useBulkDecision({
    noun: 'publisher',
    mutation: useBulkDecidePublishers(),
    statuses: { approve: 'approved', reject: 'blocked' },
    reasons: publisherRejectReasons,
    rejectText:
      'Every selected sign-up is rejected with this reason: they cannot sign in, and each gets an e-mail with it.',
    rowLabel: (p: AdminPublisher) => `Select ${p.name || p.email}`,
  });
  const query = usePublishers({ ...list.query, ...list.activeFilters } as PublisherListParams);

  const columns: DataTableColumn<AdminPublisher>[] = [
    {
      accessor: 'name',
      title: 'Name',
      sortable: true,
      render: (p) => (
        <Stack gap={0} miw={150} maw={{ base: 200, md: 320 }}>
          <RowLink to={adminPaths.publisher(p.id)} fw={600}>
            {p.name || '—'}
          </RowLink>
          <DimmedNote>{p.business_legal_name}</DimmedNote>
          <EmailText size="xs" c="dimmed" hiddenFrom="xl" email={p.email} />
        </Stack>
      ),
    },
    {
      accessor: 'email',
      title: 'Email',
      sortable: true,
      // Under the name below 1408 px: with the row's three buttons it overflowed a 1280 desk.
      visibleMediaQuery: fromWide,
      render: (p) => <EmailText size="sm" maw={240} email={p.email} />,
    },
    ...accountColumns('publisher'),
    actionsColumn(
      (p) => (
        <RowActions>
          <PublisherStatusActions publisher={p} />
          <AgreementUploadButton publisher={p} />
        </RowActions>
      ),
      { noWrap: true },
    ),
  ];

  return (
    <ListPage<AdminPublisher>
      title="Publishers"
      description="Approve new publishers, block or unblock accounts, and upload agreements."
      filters={
        <ListSearchAndStatus list={list} search="Name or email" statuses={statusFilterOptions} />
      }
      above={bulk.bar}
      empty="No publishers have signed up yet."
      columns={columns}
      list={list}
      query={query}
      selection={bulk.selection}
      minWidth={640}
      onRowClick={(p) => navigate(adminPaths.publisher(p.id))}
    >
      {bulk.dialog}
    </ListPage>
  );
}
