import type { AdminApplication } from '@contract/admin.ts';
import { applicationReasons } from '@contract/review-reasons.ts';
import { Badge, Group } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { useBulkDecision } from '@/components/lists/bulk-decision.tsx';
import {
  actionsColumn,
  dateColumn,
  publisherAndOfferColumns,
  RowActions,
  RowButton,
} from '@/components/lists/columns.tsx';
import { ListOfferFilter, ListSearchAndStatus } from '@/components/lists/list-filter-fields.tsx';
import { ListPage } from '@/components/lists/list-page.tsx';
import { fromTablet } from '@/components/paged-table.tsx';
import { StatusBadge, statusOptions } from '@/components/status-badge.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import { useBulkDecideApplications } from '@/features/admin/applications/api/decide-application.ts';
import {
  type ApplicationListParams,
  useApplications,
} from '@/features/admin/applications/api/list-applications.ts';
import { ApplicationReviewModal } from './application-review-modal.tsx';
import { IoCell } from './io-upload-button.tsx';

/** Sortable columns and the direction of their first click. */
const sorts = { created_at: 'desc', status: 'asc' } as const;
const filterNames = ['q', 'status', 'offer_id'] as const;

/**
 * /admin/applications: submitted applications, filtered by offer and status. Review opens the
 * submission (recordings, document, earlier submissions) where the decision is made; pending
 * rows can be picked and decided together with one reason.
 */
export function ApplicationsPage() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  const query = useApplications({ ...list.query, ...list.activeFilters } as ApplicationListParams);
  const [reviewing, setReviewing] = useState<AdminApplication | null>(null);
  // Pending rows can be picked and decided together, with one reason.
  const bulk = useBulkDecision({
    noun: 'application',
    mutation: useBulkDecideApplications(),
    statuses: { approve: 'approved', reject: 'rejected' },
    reasons: applicationReasons,
    rejectText:
      'Every selected application is rejected with this reason; each publisher reads it and gets an e-mail.',
    rowLabel: (a: AdminApplication) =>
      `Select the application of ${a.publisher_name || a.publisher_email} to ${a.offer_title}`,
  });

  const columns: DataTableColumn<AdminApplication>[] = [
    ...publisherAndOfferColumns(),
    {
      accessor: 'status',
      title: 'Status',
      sortable: true,
      noWrap: true,
      render: (a) => (
        <Group gap={6} wrap="nowrap">
          <StatusBadge status={a.status} subject="application" />
          {a.submissions > 1 ? (
            <Badge variant="outline" color="gray.8" size="sm">
              {`Resubmitted (${a.submissions})`}
            </Badge>
          ) : null}
        </Group>
      ),
    },
    dateColumn('created_at', 'Submitted', (a) => a.created_at, {
      sortable: true,
      visibleMediaQuery: fromTablet,
    }),
    actionsColumn((a) => (
      <RowActions>
        <RowButton
          icon={<IconEye size={14} />}
          onClick={() => setReviewing(a)}
          label={`Review the application of ${a.publisher_name || a.publisher_email} to ${a.offer_title}`}
        >
          {a.status === 'pending' ? 'Review' : 'Open'}
        </RowButton>
        <IoCell application={a} />
      </RowActions>
    )),
  ];

  return (
    <ListPage<AdminApplication>
      title="Applications"
      description="Publishers' applications to offers. Review a submission to approve or reject it, and upload the IO of approved ones."
      filters={
        <>
          <ListSearchAndStatus
            list={list}
            search="Publisher, email or offer"
            statuses={statusOptions(['pending', 'approved', 'rejected'])}
          />
          <ListOfferFilter list={list} />
        </>
      }
      above={bulk.bar}
      empty="No applications yet. They appear here once a publisher submits compliance files."
      columns={columns}
      list={list}
      query={query}
      selection={bulk.selection}
    >
      <ApplicationReviewModal application={reviewing} onClose={() => setReviewing(null)} />
      {bulk.dialog}
    </ListPage>
  );
}
