import type { BuyerBilling } from '@contract/buyer-billing.ts';
import { Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { ScrollTable } from '@/components/scroll-table.tsx';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { failedToast } from '@/lib/notify.ts';
import { useDownloadInvoice } from './billing-api.ts';

/**
 * A buyer's billing as both the buyer (Billing tab) and an admin (the buyer's billing card)
 * read it: the mode, the balance (prepaid: what deposits and credits leave after the billed
 * calls), the deposits and the monthly invoices with their PDF and CSV.
 */
export function BillingView({ billing, area }: { billing: BuyerBilling; area: 'buyer' | 'admin' }) {
  const download = useDownloadInvoice(area);
  const save = (id: string, format: 'pdf' | 'csv') =>
    download.mutate({ id, format }, { onError: failedToast('Download failed') });
  const prepaid = billing.mode === 'prepaid';
  return (
    <Stack gap="md">
      <Group gap="sm" align="baseline">
        <Badge color={prepaid ? 'teal' : 'blue'} variant="light">
          {prepaid ? 'Prepaid' : 'Postpaid'}
        </Badge>
        <Text size="sm" c="dimmed">
          {prepaid
            ? 'Each billed call draws the balance; at zero the campaigns pause until the next deposit.'
            : 'Billed calls are invoiced monthly, returns credited.'}
        </Text>
      </Group>
      <div>
        <Text size="sm" c="dimmed" fw={500}>
          Balance
        </Text>
        <Text size="xl" fw={700} c={billing.balance <= 0 && prepaid ? 'red' : undefined}>
          {formatMoney(billing.balance)}
        </Text>
      </div>
      <Title order={4}>Deposits</Title>
      <ScrollTable
        count={billing.deposits.length}
        empty="No deposits yet."
        minWidth={420}
        heads={['Date', { label: 'Amount', right: true }, 'Note']}
      >
        {billing.deposits.map((d) => (
          <Table.Tr key={d.id}>
            <Table.Td>{formatDateTime(d.created_at)}</Table.Td>
            <Table.Td ta="right">{formatMoney(d.amount)}</Table.Td>
            <Table.Td>{d.note ?? '—'}</Table.Td>
          </Table.Tr>
        ))}
      </ScrollTable>
      <Title order={4}>Invoices</Title>
      <ScrollTable
        count={billing.invoices.length}
        empty="No invoices yet."
        minWidth={420}
        heads={['Month', { label: 'Total', right: true }, 'Files']}
      >
        {billing.invoices.map((i) => (
          <Table.Tr key={i.id}>
            <Table.Td>{i.month}</Table.Td>
            <Table.Td ta="right">
              {formatMoney(i.total)} {i.currency}
            </Table.Td>
            <Table.Td>
              <Group gap="xs">
                <Button size="compact-xs" variant="light" onClick={() => save(i.id, 'pdf')}>
                  PDF
                </Button>
                <Button size="compact-xs" variant="light" onClick={() => save(i.id, 'csv')}>
                  CSV
                </Button>
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </ScrollTable>
    </Stack>
  );
}
