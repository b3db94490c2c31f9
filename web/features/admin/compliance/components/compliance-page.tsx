import type { ComplianceSubmission } from '@contract/admin.ts';
import { Button, Stack } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { ListFilters, SearchFilter, SelectFilter } from '@/components/list-filters.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { fromTablet, PagedTable } from '@/components/paged-table.tsx';
import { PersonCell } from '@/components/person-cell.tsx';
import { StatusBadge, statusOptions } from '@/components/status-badge.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import {
  type ComplianceListParams,
  useCompliance,
} from '@/features/admin/compliance/api/list-compliance.ts';
import { formatDate } from '@/lib/format.ts';
import { ComplianceReviewModal } from './compliance-review-modal.tsx';

/** Sortable columns and the direction of their first click. */
const sorts = { created_at: 'desc' } as const;
const filterNames = ['q', 'status'] as const;

/** /admin/compliance: submissions with their files; review plays the media and decides. */
export function CompliancePage() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  const [reviewing, setReviewing] = useState<ComplianceSubmission | null>(null);
  const { q, status } = list.filters;
  const params: ComplianceListParams = {
    ...list.query,
    sort: 'created_at',
    q: q || undefined,
    status: (status || undefined) as ComplianceListParams['status'],
  };
  const query = useCompliance(params);

  const columns: DataTableColumn<ComplianceSubmission>[] = [
    {
      accessor: 'publisher_name',
      title: 'Publisher',
      render: (s) => <PersonCell name={s.publisher_name} email={s.publisher_email} />,
    },
    { accessor: 'offer_title', title: 'Offer' },
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
    {
      accessor: 'created_at',
      title: 'Submitted',
      sortable: true,
      noWrap: true,
      render: (s) => formatDate(s.created_at),
    },
    {
      accessor: 'actions',
      title: 'Actions',
      textAlign: 'right',
      render: (s) => (
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPlayerPlay size={14} />}
          onClick={(e) => {
            e.stopPropagation();
            setReviewing(s);
          }}
          aria-label={`Review submission of ${s.publisher_name || s.publisher_email} for ${s.offer_title}`}
        >
          Review
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="lg">
      <PageHeader
        title="Compliance"
        description="Compliance submissions: listen to the calls, read the document, and decide the application."
      />
      <ListFilters>
        <SearchFilter
          value={q}
          onSearch={(v) => list.setFilter('q', v)}
          placeholder="Publisher, email or offer"
        />
        <SelectFilter
          label="Application status"
          placeholder="All statuses"
          data={statusOptions(['pending', 'approved', 'rejected'])}
          value={status}
          onChange={(v) => list.setFilter('status', v)}
          w={220}
        />
      </ListFilters>
      <PagedTable<ComplianceSubmission>
        phoneCards
        label="Compliance submissions"
        columns={columns}
        list={list}
        query={query}
        errorTitle="Error loading submissions"
        emptyTitle={
          q || status
            ? 'No submissions match these filters.'
            : 'No compliance submissions yet. They appear here when a publisher applies to an offer.'
        }
        onRowClick={setReviewing}
      />
      <ComplianceReviewModal
        submission={reviewing}
        fetchedAt={query.dataUpdatedAt}
        onClose={() => setReviewing(null)}
      />
    </Stack>
  );
}
