import type { AdminBuyer } from '@contract/admin.ts';
import { Button, Card, Group, Modal, Stack, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import {
  useBuyerBilling,
  useGenerateInvoice,
  useRecordDeposit,
  useSetBillingMode,
} from '@/components/billing/billing-api.ts';
import { BillingView } from '@/components/billing/billing-view.tsx';
import { LabeledSegmentedControl } from '@/components/forms/labeled-segmented-control.tsx';
import { MoneyInput } from '@/components/forms/money-input.tsx';
import { QueryCard } from '@/components/query-card.tsx';
import { failedToast, toast } from '@/lib/notify.ts';

/** Last month as `YYYY-MM` (the newest month an invoice can be made for). */
function lastMonth(): string {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - 1);
  return d.toISOString().slice(0, 7);
}

/**
 * Admin → Buyers → Billing (issue 31, item 6): one buyer's billing card: the mode (prepaid or
 * postpaid), a deposit form, "Generate now" for a past month's invoice, and what the buyer sees
 * (balance, deposits, invoices with their PDF and CSV).
 */
function BuyerBillingCard({ buyer }: { buyer: AdminBuyer }) {
  const query = useBuyerBilling(buyer.id);
  const setMode = useSetBillingMode();
  const deposit = useRecordDeposit();
  const generate = useGenerateInvoice();
  const [amount, setAmount] = useState<number | string>('');
  const [note, setNote] = useState('');
  const [month, setMonth] = useState(lastMonth());

  const submitDeposit = () =>
    deposit.mutate(
      { id: buyer.id, amount: Number(amount), ...(note.trim() && { note: note.trim() }) },
      {
        onSuccess: (b) => {
          setAmount('');
          setNote('');
          toast({ title: 'Deposit recorded', description: `The balance is now ${b.balance}.` });
        },
        onError: failedToast('Deposit failed'),
      },
    );

  return (
    <QueryCard query={query} errorTitle="Billing could not be loaded">
      {(billing) => (
        <Stack gap="lg">
          <Group justify="space-between" align="flex-end">
            <LabeledSegmentedControl
              id="billing-mode-label"
              label="Billing mode"
              value={billing.mode}
              data={[
                { value: 'prepaid', label: 'Prepaid' },
                { value: 'postpaid', label: 'Postpaid' },
              ]}
              disabled={setMode.isPending}
              onChange={(mode) =>
                setMode.mutate(
                  { id: buyer.id, mode: mode as 'prepaid' | 'postpaid' },
                  { onError: failedToast('Update failed') },
                )
              }
            />
            <Group gap="xs" align="flex-end">
              <TextInput
                label="Invoice month"
                placeholder="YYYY-MM"
                value={month}
                onChange={(e) => setMonth(e.currentTarget.value)}
                w={120}
              />
              <Button
                variant="light"
                loading={generate.isPending}
                onClick={() =>
                  generate.mutate(
                    { id: buyer.id, month },
                    {
                      onSuccess: (i) =>
                        toast({ title: 'Invoice ready', description: `${i.month}: ${i.total}` }),
                      onError: failedToast('Invoice failed'),
                    },
                  )
                }
              >
                Generate now
              </Button>
            </Group>
          </Group>
          <Card withBorder padding="sm">
            <Title order={5} mb="xs">
              Record a deposit
            </Title>
            <Group align="flex-end" gap="sm">
              <MoneyInput label="Amount" value={amount} onChange={setAmount} w={160} min={0.01} />
              <TextInput
                label="Note"
                placeholder="Wire reference"
                value={note}
                onChange={(e) => setNote(e.currentTarget.value)}
                maxLength={500}
                style={{ flex: 1 }}
              />
              <Button
                onClick={submitDeposit}
                loading={deposit.isPending}
                disabled={!(Number(amount) > 0)}
              >
                Record deposit
              </Button>
            </Group>
          </Card>
          <BillingView billing={billing} area="admin" />
        </Stack>
      )}
    </QueryCard>
  );
}

/** The buyer's billing card in a dialog opened from the buyers list. */
export function BuyerBillingModal({
  buyer,
  onClose,
}: {
  buyer: AdminBuyer | null;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={buyer !== null}
      onClose={onClose}
      title={buyer ? `Billing · ${buyer.name || buyer.email}` : 'Billing'}
      size="xl"
    >
      {buyer ? <BuyerBillingCard buyer={buyer} /> : null}
    </Modal>
  );
}
