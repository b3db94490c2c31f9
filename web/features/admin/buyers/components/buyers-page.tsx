import { Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useEffect, useState } from 'react';
import type { AdminBuyer } from '../../../../../contract/admin.ts';
import { ConfirmDialog } from '../../../../components/confirm-dialog.tsx';
import { PageHeader } from '../../../../components/page-header.tsx';
import { fromTablet, PagedTable } from '../../../../components/paged-table.tsx';
import { StatusBadge } from '../../../../components/status-badge.tsx';
import { useErrorToast } from '../../../../components/use-error-toast.ts';
import { useListParams } from '../../../../components/use-list-params.ts';
import { formatDate } from '../../../../lib/format.ts';
import { toast } from '../../../../lib/notify.ts';
import { type BuyerListParams, useBuyers } from '../api/list-buyers.ts';
import { useUpdateBuyerStatus } from '../api/update-buyer-status.ts';

const sorts = ['created_at', 'name', 'email', 'status'] as const;
const filterNames = ['q', 'status'] as const;
const statusOptions = [
  { value: 'active', label: 'Active' },
  { value: 'blocked', label: 'Blocked' },
];

/** /admin/buyers: search, status filter, sorting, paging; Block / Unblock after confirmation. */
export function BuyersPage() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  const [search, setSearch] = useState(list.filters.q);
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [confirming, setConfirming] = useState<AdminBuyer | null>(null);
  const mutation = useUpdateBuyerStatus();

  const { q, status } = list.filters;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new debounced search resets the page
  useEffect(() => {
    if (debounced !== q) list.setFilter('q', debounced);
  }, [debounced]);

  const params: BuyerListParams = {
    ...list.query,
    q: q || undefined,
    status: status === 'active' || status === 'blocked' ? status : undefined,
  };
  const query = useBuyers(params);
  useErrorToast(query.error, 'Error loading buyers');

  const handleConfirm = () => {
    if (!confirming) return;
    const next = confirming.status === 'blocked' ? 'active' : 'blocked';
    const who = confirming.name || confirming.email;
    mutation.mutate(
      { id: confirming.id, status: next },
      {
        onSuccess: () => {
          setConfirming(null);
          toast({
            title: 'Buyer Updated',
            description: `${who} has been ${next === 'blocked' ? 'blocked' : 'unblocked'}.`,
          });
        },
        onError: (err) => {
          setConfirming(null);
          toast({ title: 'Update failed', description: err.message, variant: 'destructive' });
        },
      },
    );
  };

  const columns: DataTableColumn<AdminBuyer>[] = [
    {
      accessor: 'name',
      title: 'Name',
      sortable: true,
      render: (b) => (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {b.name || '—'}
          </Text>
          {b.company_name ? (
            <Text size="xs" c="dimmed">
              {b.company_name}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      accessor: 'email',
      title: 'Email',
      sortable: true,
      render: (b) => (
        <Stack gap={2}>
          <Text size="sm">{b.email}</Text>
          {b.email_confirmed ? null : (
            <Text size="xs" c="#a33b00">
              Email not confirmed
            </Text>
          )}
        </Stack>
      ),
    },
    {
      accessor: 'status',
      noWrap: true,
      width: 120,
      title: 'Status',
      sortable: true,
      render: (b) =>
        b.status === 'blocked' ? (
          <StatusBadge color="red">Blocked</StatusBadge>
        ) : (
          <StatusBadge color="green">Active</StatusBadge>
        ),
    },
    {
      accessor: 'created_at',
      noWrap: true,
      title: 'Signed up',
      sortable: true,
      visibleMediaQuery: fromTablet,
      render: (b) => formatDate(b.created_at),
    },
    {
      accessor: 'actions',
      noWrap: true,
      title: 'Actions',
      textAlign: 'right',
      render: (b) => {
        const who = b.name || b.email;
        return b.status === 'blocked' ? (
          <Button
            size="xs"
            variant="light"
            onClick={() => setConfirming(b)}
            aria-label={`Unblock ${who}`}
          >
            Unblock
          </Button>
        ) : (
          <Button
            size="xs"
            color="red"
            variant="light"
            onClick={() => setConfirming(b)}
            aria-label={`Block ${who}`}
          >
            Block
          </Button>
        );
      },
    },
  ];

  const blocking = confirming?.status !== 'blocked';
  const who = confirming ? confirming.name || confirming.email : '';

  return (
    <Stack gap="lg">
      <PageHeader title="Buyers" description="Every buyer account; block or unblock access." />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label="Search"
          placeholder="Name or email"
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
      <PagedTable<AdminBuyer>
        label="Buyers"
        columns={columns}
        records={query.data?.items}
        total={query.data?.total ?? 0}
        page={list.page}
        pageSize={list.pageSize}
        onPageChange={list.setPage}
        onPageSizeChange={list.setPageSize}
        sortStatus={list.sortStatus<AdminBuyer>()}
        onSortStatusChange={list.setSortStatus}
        isPending={query.isPending}
        isFetching={query.isFetching}
        isError={query.isError}
        errorTitle="Error loading buyers"
        errorMessage={query.error?.message}
        onRetry={() => void query.refetch()}
        minWidth={600}
        emptyText={q || status ? 'No buyers match these filters.' : 'No buyers have signed up yet.'}
      />
      <ConfirmDialog
        opened={confirming !== null}
        title={blocking ? 'Block this buyer?' : 'Unblock this buyer?'}
        confirmLabel={blocking ? 'Block' : 'Unblock'}
        color={blocking ? 'red' : 'blue'}
        pending={mutation.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={handleConfirm}
      >
        {blocking
          ? `${who} will be signed out at once and cannot sign in until you unblock the account.`
          : `${who} will be able to sign in and manage campaigns again.`}
      </ConfirmDialog>
    </Stack>
  );
}
