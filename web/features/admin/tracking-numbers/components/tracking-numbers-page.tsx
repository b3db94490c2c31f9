import type { TrackingNumber } from '@contract/integrations.ts';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash, IconUpload } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { ListFilters } from '@/components/list-filters.tsx';
import { ListSearch } from '@/components/lists/list-filter-fields.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { PagedTable } from '@/components/paged-table.tsx';
import { useConfirmedAction } from '@/components/use-confirmed-action.ts';
import { useListParams } from '@/components/use-list-params.ts';
import { useDeleteTrackingNumber } from '@/features/admin/tracking-numbers/api/delete-tracking-number.ts';
import { useTrackingNumbers } from '@/features/admin/tracking-numbers/api/list-tracking-numbers.ts';
import { formatDateTime } from '@/lib/format.ts';
import { formatPhone } from '@/lib/phone-format.ts';
import { AddNumberModal } from './add-number-modal.tsx';
import { ImportNumbersModal } from './import-numbers-modal.tsx';

/** The list has one order, newest first; the URL keeps page, page size and the search. */
const sorts = { created_at: 'desc' } as const;
const filterNames = ['q'] as const;

/** The number as people read it, with the kept E.164 form under it for copying into a tracker. */
function NumberCell({ n }: { n: TrackingNumber }) {
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
        {formatPhone(n.number)}
      </Text>
      <Text size="xs" c="dimmed" ff="monospace">
        {n.number}
      </Text>
    </Stack>
  );
}

/**
 * /admin/tracking-numbers: the numbers calls arrive on, each assigned to a publisher on an offer
 * (a call to one belongs to them when its tracker sends no publisher or offer). Add one at a
 * time or import a CSV file; delete with a confirmation.
 */
export function TrackingNumbersPage() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  const query = useTrackingNumbers({ ...list.paging, ...list.activeFilters });
  const remove = useDeleteTrackingNumber();
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [deleting, setDeleting, deleteDialog] = useConfirmedAction(
    (n: TrackingNumber) => remove.mutateAsync(n.id),
    (n) => ({ title: 'Number Deleted', description: `${formatPhone(n.number)} removed.` }),
    'Failed to delete number',
  );

  const deleteButton = (n: TrackingNumber) => (
    <Button
      variant="subtle"
      color="red"
      size="compact-sm"
      leftSection={<IconTrash size={14} />}
      aria-label={`Delete ${formatPhone(n.number)}`}
      onClick={() => setDeleting(n)}
    >
      Delete
    </Button>
  );

  const columns: DataTableColumn<TrackingNumber>[] = [
    { accessor: 'number', title: 'Number', render: (n) => <NumberCell n={n} /> },
    { accessor: 'publisher_name', title: 'Publisher' },
    { accessor: 'offer_title', title: 'Offer' },
    {
      accessor: 'created_at',
      title: 'Added',
      render: (n) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(n.created_at)}</span>,
    },
    {
      accessor: 'id',
      title: 'Actions',
      textAlign: 'right',
      width: 110,
      render: (n) => deleteButton(n),
    },
  ];

  // Phones: the number first with its Delete beside it, then who it belongs to.
  const renderCard = (n: TrackingNumber) => (
    <Stack gap={6}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <NumberCell n={n} />
        {deleteButton(n)}
      </Group>
      <Text size="sm">
        {n.publisher_name}
        <Text span c="dimmed">
          {' '}
          on{' '}
        </Text>
        {n.offer_title}
      </Text>
      <Text size="xs" c="dimmed">
        Added {formatDateTime(n.created_at)}
      </Text>
    </Stack>
  );

  return (
    <Stack gap="lg">
      <PageHeader
        title="Tracking numbers"
        description="A call to one of these numbers belongs to its publisher and offer when the tracker sends neither."
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconUpload size={16} />}
              onClick={() => setImporting(true)}
            >
              Import CSV
            </Button>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
              Add number
            </Button>
          </>
        }
      />
      <ListFilters>
        <ListSearch
          list={list}
          name="q"
          placeholder="Number (any format), publisher or offer"
          w={320}
        />
      </ListFilters>
      <PagedTable<TrackingNumber>
        label="Tracking numbers"
        columns={columns}
        // One order only (newest first): no column shows a sort arrow.
        list={{ ...list, sort: '' }}
        query={query}
        renderCard={renderCard}
        errorTitle="Error loading tracking numbers"
        emptyTitle={list.filtered ? 'No numbers match this search.' : 'No tracking numbers yet.'}
        emptyText={
          list.filtered
            ? 'Try part of the number, or a publisher or offer name.'
            : 'Add a number, or import a CSV file of number, publisher and offer.'
        }
      />
      {adding ? (
        <AddNumberModal onClose={() => setAdding(false)} onAdded={() => setAdding(false)} />
      ) : null}
      {importing ? <ImportNumbersModal onClose={() => setImporting(false)} /> : null}
      <ConfirmDialog {...deleteDialog} title="Delete tracking number" confirmLabel="Delete number">
        {deleting ? (
          <>
            Calls to <b>{formatPhone(deleting.number)}</b> will no longer go to{' '}
            <b>{deleting.publisher_name}</b> on <b>{deleting.offer_title}</b> when their tracker
            sends no publisher or offer.
          </>
        ) : null}
      </ConfirmDialog>
    </Stack>
  );
}
