import { ActionIcon, Button, Group, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconEdit, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useEffect, useState } from 'react';
import type { AdminOffer } from '../../../../../contract/admin.ts';
import type { OfferStatus } from '../../../../../contract/roles.ts';
import { ConfirmDialog } from '../../../../components/confirm-dialog.tsx';
import { PageHeader } from '../../../../components/page-header.tsx';
import { PagedTable } from '../../../../components/paged-table.tsx';
import { useErrorToast } from '../../../../components/use-error-toast.ts';
import { useListParams } from '../../../../components/use-list-params.ts';
import { formatDate, formatMoney } from '../../../../lib/format.ts';
import { toast } from '../../../../lib/notify.ts';
import { useDeleteOffer } from '../api/delete-offer.ts';
import { type OfferListParams, useOffers } from '../api/list-offers.ts';
import { OfferFormModal } from './offer-form-modal.tsx';
import { OfferStatusBadge } from './offer-status-badge.tsx';

const sorts = ['created_at', 'title', 'vertical', 'payout', 'status'] as const;
const filterNames = ['q', 'status'] as const;
const statusOptions = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];

/** /admin/offers: search, status filter, sorting, paging; create, edit and delete offers. */
export function OffersPage() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  const [search, setSearch] = useState(list.filters.q);
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [editing, setEditing] = useState<AdminOffer | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<AdminOffer | null>(null);
  const deleteMutation = useDeleteOffer();

  const { q, status } = list.filters;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new debounced search resets the page
  useEffect(() => {
    if (debounced !== q) list.setFilter('q', debounced);
  }, [debounced]);

  const params: OfferListParams = {
    ...list.query,
    q: q || undefined,
    status: (status || undefined) as OfferStatus | undefined,
  };
  const query = useOffers(params);
  useErrorToast(query.error, 'Error loading offers');

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
        toast({
          title: 'Failed to delete offer',
          description: err.message,
          variant: 'destructive',
        });
      },
    });
  }

  const columns: DataTableColumn<AdminOffer>[] = [
    {
      accessor: 'title',
      title: 'Title',
      sortable: true,
      render: (o) => (
        <Stack gap={0} maw={360}>
          <Text size="sm" fw={600}>
            {o.title}
          </Text>
          {o.script_instructions ? (
            <Text size="xs" c="dimmed" lineClamp={1}>
              {o.script_instructions}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    { accessor: 'vertical', title: 'Vertical', sortable: true },
    {
      accessor: 'payout',
      title: 'Payout',
      sortable: true,
      textAlign: 'right',
      render: (o) => formatMoney(o.payout),
    },
    {
      accessor: 'status',
      title: 'Status',
      sortable: true,
      render: (o) => <OfferStatusBadge status={o.status} />,
    },
    {
      accessor: 'created_at',
      title: 'Created',
      sortable: true,
      render: (o) => formatDate(o.created_at),
    },
    {
      accessor: 'actions',
      title: 'Actions',
      textAlign: 'right',
      render: (o) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label="Edit">
            <ActionIcon
              variant="subtle"
              onClick={() => openEdit(o)}
              aria-label={`Edit offer ${o.title}`}
            >
              <IconEdit size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete">
            <ActionIcon
              variant="subtle"
              color="red"
              onClick={() => setDeleting(o)}
              aria-label={`Delete offer ${o.title}`}
            >
              <IconTrash size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="lg">
      <PageHeader
        title="Offers"
        description="The offers publishers can apply to, with their payout per call."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={openCreate}>
            Create Offer
          </Button>
        }
      />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label="Search"
          placeholder="Title or vertical"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={{ base: '100%', sm: 280 }}
        />
        <Select
          label="Status"
          placeholder="All statuses"
          data={statusOptions}
          value={status || null}
          onChange={(v) => list.setFilter('status', v)}
          clearable
          w={{ base: '100%', sm: 200 }}
        />
      </Group>
      <PagedTable<AdminOffer>
        label="Offers"
        columns={columns}
        records={query.data?.items}
        total={query.data?.total ?? 0}
        page={list.page}
        pageSize={list.pageSize}
        onPageChange={list.setPage}
        onPageSizeChange={list.setPageSize}
        sortStatus={list.sortStatus<AdminOffer>()}
        onSortStatusChange={list.setSortStatus}
        isPending={query.isPending}
        isFetching={query.isFetching}
        isError={query.isError}
        errorTitle="Error loading offers"
        errorMessage={query.error?.message}
        onRetry={() => void query.refetch()}
        emptyText={
          q || status
            ? 'No offers match these filters.'
            : 'No offers yet. Create the first one for publishers to apply to.'
        }
      />
      <OfferFormModal opened={formOpen} offer={editing} onClose={() => setFormOpen(false)} />
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
    </Stack>
  );
}
