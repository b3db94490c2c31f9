import type { ComplianceSubmission } from '@contract/admin.ts';
import { IconPlayerPlay } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import {
  actionsColumn,
  dateColumn,
  publisherAndOfferColumns,
  RowButton,
} from '@/components/lists/columns.tsx';
import { ListSearchAndStatus } from '@/components/lists/list-filter-fields.tsx';
import { ListPage } from '@/components/lists/list-page.tsx';
import { fromTablet } from '@/components/paged-table.tsx';
import { StatusBadge, statusOptions } from '@/components/status-badge.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import {
  type ComplianceListParams,
  useCompliance,
} from '@/features/admin/compliance/api/list-compliance.ts';
import { ComplianceReviewModal } from './compliance-review-modal.tsx';

/** Sortable columns and the direction of their first click. */
const sorts = { created_at: 'desc' } as const;
const filterNames = ['q', 'status'] as const;

/** /admin/compliance: submissions with their files; review plays the media and decides. */
export function CompliancePage() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  const [reviewing, setReviewing] = useState<ComplianceSubmission | null>(null);
  const query = useCompliance({
    ...list.query,
    sort: 'created_at',
    ...list.activeFilters,
  } as ComplianceListParams);

  const columns: DataTableColumn<ComplianceSubmission>[] = [
    ...publisherAndOfferColumns(),
    {
      accessor: 'application_status',
      title: 'Application status',
      noWrap: true,
      render: (s) => <StatusBadge status={s.application_status} subject="application" />,
    },
    {
      accessor: 'files',
      title: 'Files',
      visibleMediaQuery: fromTablet,
      render: (s) => `${s.media.length} media, 1 document`,
    },
    dateColumn('created_at', 'Submitted', (s) => s.created_at, { sortable: true }),
    actionsColumn((s) => (
      <RowButton
        icon={<IconPlayerPlay size={14} />}
        onClick={() => setReviewing(s)}
        label={`Review submission of ${s.publisher_name || s.publisher_email} for ${s.offer_title}`}
      >
        Review
      </RowButton>
    )),
  ];

  return (
    <ListPage<ComplianceSubmission>
      title="Compliance"
      description="Compliance submissions: listen to the calls, read the document, and decide the application."
      filters={
        <ListSearchAndStatus
          list={list}
          search="Publisher, email or offer"
          statuses={statusOptions(['pending', 'approved', 'rejected'])}
          statusLabel="Application status"
          statusWidth={220}
        />
      }
      noun="submissions"
      label="Compliance submissions"
      empty="No compliance submissions yet. They appear here when a publisher applies to an offer."
      columns={columns}
      list={list}
      query={query}
      onRowClick={setReviewing}
    >
      <ComplianceReviewModal
        submission={reviewing}
        fetchedAt={query.dataUpdatedAt}
        onClose={() => setReviewing(null)}
      />
    </ListPage>
  );
}
