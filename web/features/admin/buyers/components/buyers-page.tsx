import type { AdminBuyer } from '@contract/admin.ts';
import { Button, Stack, Text, useMantineTheme } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { EmailText } from '@/components/email-text.tsx';
import {
  accountColumns,
  actionsColumn,
  RowActions,
  titleColumn,
} from '@/components/lists/columns.tsx';
import { ListSearchAndStatus } from '@/components/lists/list-filter-fields.tsx';
import { ListPage } from '@/components/lists/list-page.tsx';
import { fromDesktop } from '@/components/paged-table.tsx';
import { ResetTwoFactorButton } from '@/components/reset-two-factor-button.tsx';
import { StatusActionButton, statusActionColor } from '@/components/status-action-button.tsx';
import { statusOptions } from '@/components/status-badge.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import { type BuyerListParams, useBuyers } from '@/features/admin/buyers/api/list-buyers.ts';
import { useUpdateBuyerStatus } from '@/features/admin/buyers/api/update-buyer-status.ts';
import { failedToast, toast } from '@/lib/notify.ts';
import { BuyerBillingModal } from './buyer-billing-modal.tsx';

/** Sortable columns and the direction of their first click. */
const sorts = { created_at: 'desc', name: 'asc', email: 'asc', status: 'asc' } as const;
const filterNames = ['q', 'status'] as const;

/** A buyer's e-mail, and a warning while it is unconfirmed (such a buyer cannot sign in). */
function BuyerEmail({ buyer, size }: { buyer: AdminBuyer; size: 'xs' | 'sm' }) {
  return (
    <Stack gap={2}>
      <EmailText
        size={size}
        c={size === 'xs' ? 'dimmed' : undefined}
        maw={320}
        email={buyer.email}
      />
      {buyer.email_confirmed ? null : (
        <Text size="xs" c="#a33b00">
          Email not confirmed
        </Text>
      )}
    </Stack>
  );
}

/** /admin/buyers: search, status filter, sorting, paging; Billing; Block / Unblock after confirmation. */
export function BuyersPage() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  const [confirming, setConfirming] = useState<AdminBuyer | null>(null);
  const [billingOf, setBillingOf] = useState<AdminBuyer | null>(null);
  const theme = useMantineTheme();
  const wide = useMediaQuery(`(min-width: ${theme.breakpoints.md})`, true);
  const mutation = useUpdateBuyerStatus();
  const { q, status } = list.filters;
  const params: BuyerListParams = {
    ...list.query,
    q: q || undefined,
    status: status === 'active' || status === 'blocked' ? status : undefined,
  };
  const query = useBuyers(params);

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
          failedToast('Update failed')(err);
        },
      },
    );
  };

  const columns: DataTableColumn<AdminBuyer>[] = [
    titleColumn('name', 'Name', (b) => ({
      title: b.name || '—',
      sub: b.company_name,
      miw: 150,
      maw: { base: 200, md: 320 },
      // Rendered, not just hidden, in one place only: the e-mail column or under the name.
      children: wide ? null : <BuyerEmail buyer={b} size="xs" />,
    })),
    {
      accessor: 'email',
      title: 'Email',
      sortable: true,
      visibleMediaQuery: fromDesktop,
      render: (b) => <BuyerEmail buyer={b} size="sm" />,
    },
    ...accountColumns('buyer'),
    actionsColumn(
      (b) => (
        <RowActions>
          <Button
            size="xs"
            variant="light"
            onClick={() => setBillingOf(b)}
            aria-label={`Billing of ${b.name || b.email}`}
          >
            Billing
          </Button>
          <ResetTwoFactorButton user={b} apps={b.two_factor_apps} size="xs" />
          <StatusActionButton
            action={b.status === 'blocked' ? 'unblock' : 'block'}
            onClick={() => setConfirming(b)}
            aria-label={`${b.status === 'blocked' ? 'Unblock' : 'Block'} ${b.name || b.email}`}
          />
        </RowActions>
      ),
      { noWrap: true },
    ),
  ];

  const blocking = confirming?.status !== 'blocked';
  const who = confirming ? confirming.name || confirming.email : '';

  return (
    <ListPage<AdminBuyer>
      title="Buyers"
      description="Every buyer account; billing (prepaid deposits, invoices); block or unblock access."
      filters={
        <ListSearchAndStatus
          list={list}
          search="Name or email"
          statuses={statusOptions(['active', 'blocked'])}
        />
      }
      empty="No buyers have signed up yet."
      columns={columns}
      list={list}
      query={query}
      minWidth={440}
    >
      <ConfirmDialog
        opened={confirming !== null}
        title={blocking ? 'Block this buyer?' : 'Unblock this buyer?'}
        confirmLabel={blocking ? 'Block' : 'Unblock'}
        color={statusActionColor(blocking ? 'block' : 'unblock')}
        pending={mutation.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={handleConfirm}
      >
        {blocking
          ? `${who} will be signed out at once and cannot sign in until you unblock the account.`
          : `${who} will be able to sign in and manage campaigns again.`}
      </ConfirmDialog>
      <BuyerBillingModal buyer={billingOf} onClose={() => setBillingOf(null)} />
    </ListPage>
  );
}
