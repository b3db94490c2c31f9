import type { AdminOffer } from '@contract/admin.ts';
import { Button } from '@mantine/core';
import { IconEdit, IconFileDiff, IconPlus, IconTrash } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import {
  actionsColumn,
  dateColumn,
  IconActions,
  statusColumn,
  titleColumn,
} from '@/components/lists/columns.tsx';
import { ListSearchAndStatus } from '@/components/lists/list-filter-fields.tsx';
import { ListPage } from '@/components/lists/list-page.tsx';
import { fromTablet } from '@/components/paged-table.tsx';
import { statusOptions } from '@/components/status-badge.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import { useDeleteOffer } from '@/features/admin/offers/api/delete-offer.ts';
import { type OfferListParams, useOffers } from '@/features/admin/offers/api/list-offers.ts';
import { formatMoney } from '@/lib/format.ts';
import { failedToast, toast } from '@/lib/notify.ts';
import { OfferFormModal } from './offer-form-modal.tsx';
import { OfferScriptModal } from './offer-script-modal.tsx';

/** Sortable columns and the direction of their first click. */
const sorts = {
  created_at: 'desc',
  title: 'asc',
  vertical: 'asc',
  payout: 'desc',
  status: 'asc',
} as const;
const filterNames = ['q', 'status'] as const;

/** /admin/offers: search, status filter, sorting, paging; create, edit and delete offers. */
export function OffersPage() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  const [editing, setEditing] = useState<AdminOffer | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<AdminOffer | null>(null);
  const [scriptOf, setScriptOf] = useState<AdminOffer | null>(null);
  const deleteMutation = useDeleteOffer();
  const query = useOffers({ ...list.query, ...list.activeFilters } as OfferListParams);

  function openCreate() {
    setEditing(null);
    setFormOpen(true);
  }

  function openEdit(offer: AdminOffer) {
    setEditing(offer);
    setFormOpen(true);
  }

  function handleDelete() {
    if (!deleting) return;
    const offer = deleting;
    deleteMutation.mutate(offer.id, {
      onSuccess: () => {
        setDeleting(null);
        toast({ title: 'Offer Deleted', description: `"${offer.title}" has been deleted.` });
      },
      onError: (err) => {
        setDeleting(null);
        failedToast('Failed to delete offer')(err);
      },
    });
  }

  const columns: DataTableColumn<AdminOffer>[] = [
    titleColumn('title', 'Title', (o) => ({
      title: o.title,
      sub: o.script_instructions,
      clamp: 1,
      miw: 180,
      maw: 360,
    })),
    { accessor: 'vertical', title: 'Vertical', sortable: true, visibleMediaQuery: fromTablet },
    {
      accessor: 'payout',
      title: 'Payout',
      sortable: true,
      noWrap: true,
      textAlign: 'right',
      render: (o) => formatMoney(o.payout),
    },
    statusColumn('offer'),
    dateColumn('created_at', 'Created', (o) => o.created_at, {
      sortable: true,
      visibleMediaQuery: fromTablet,
    }),
    actionsColumn((o) => (
      <IconActions
        actions={[
          {
            tip: 'Edit',
            icon: <IconEdit size={18} />,
            label: `Edit offer ${o.title}`,
            onClick: () => openEdit(o),
          },
          {
            tip: 'Script versions',
            icon: <IconFileDiff size={18} />,
            label: `Script versions of ${o.title}`,
            onClick: () => setScriptOf(o),
          },
          {
            tip: 'Delete',
            icon: <IconTrash size={18} />,
            color: 'red',
            label: `Delete offer ${o.title}`,
            onClick: () => setDeleting(o),
          },
        ]}
      />
    )),
  ];

  return (
    <ListPage<AdminOffer>
      title="Offers"
      description="The offers publishers can apply to, with their payout per call."
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={openCreate}>
          Create Offer
        </Button>
      }
      filters={
        <ListSearchAndStatus
          list={list}
          search="Title or vertical"
          statuses={statusOptions(['active', 'inactive'])}
        />
      }
      empty="No offers yet. Create the first one for publishers to apply to."
      columns={columns}
      list={list}
      query={query}
      minWidth={600}
    >
      <OfferFormModal opened={formOpen} offer={editing} onClose={() => setFormOpen(false)} />
      <OfferScriptModal offer={scriptOf} onClose={() => setScriptOf(null)} />
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete this offer?"
        confirmLabel="Delete"
        pending={deleteMutation.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={handleDelete}
      >
        "{deleting?.title}" will be removed for good. An offer that already has applications or
        leads cannot be deleted; make it inactive instead.
      </ConfirmDialog>
    </ListPage>
  );
}
