import { CreatePayout } from '@contract/admin.ts';
import { Select, Skeleton } from '@mantine/core';
import { IconUserOff } from '@tabler/icons-react';
import { FormModal } from '@/components/form-modal.tsx';
import { GrowingTextarea } from '@/components/forms/growing-textarea.tsx';
import { MoneyInput } from '@/components/forms/money-input.tsx';
import { pickerProps, useModalForm } from '@/components/forms/use-modal-form.ts';
import { NoticeAlert } from '@/components/notice-alert.tsx';
import { publisherOption, SearchSelect, useQueryOptions } from '@/components/search-select.tsx';
import { serverFieldErrors, validateWithSchema } from '@/components/zod-form.ts';
import { useCreatePayout } from '@/features/admin/payouts/api/create-payout.ts';
import { useApprovedPublishers } from '@/features/admin/payouts/api/list-approved-publishers.ts';
import { displayCurrencyCode, formatMoney } from '@/lib/format.ts';

/** The network currency's symbol (`$`, `€`) for the amount field. */
const currencySymbol = () =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: displayCurrencyCode() })
    .formatToParts(0)
    .find((p) => p.type === 'currency')?.value ?? '$';

import { toast } from '@/lib/notify.ts';

type PayoutFormValues = {
  publisher_id: string;
  /** '' while blank. */
  amount: number | string;
  notes: string;
  reason: 'advance' | 'bonus' | 'correction';
};

const fields = ['publisher_id', 'amount', 'notes', 'reason'];
const emptyValues: PayoutFormValues = {
  publisher_id: '',
  amount: '',
  notes: '',
  reason: 'advance',
};

function toBody(v: PayoutFormValues) {
  const notes = v.notes.trim();
  return {
    publisher_id: v.publisher_id,
    amount: v.amount === '' ? undefined : Number(v.amount),
    notes: notes ? notes : null,
    reason: v.reason,
  };
}

const validate = validateWithSchema(CreatePayout, toBody);

const useApprovedOptions = (q: string) =>
  useQueryOptions(useApprovedPublishers(q), publisherOption);

/** Records a payout (dated now) to an approved publisher. */
export function PayoutFormModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const mutation = useCreatePayout();
  const approved = useApprovedPublishers('');
  const noPublishers = approved.data?.total === 0;
  const { form, submit, modal } = useModalForm<PayoutFormValues>({
    opened,
    onClose,
    pending: mutation.isPending,
    initial: () => emptyValues,
    validate,
    failTitle: 'Failed to create payout',
    serverErrors: (err) => serverFieldErrors(err.details, fields),
  });

  const handleSubmit = submit(
    async (values) => {
      const body = toBody(values);
      const payout = await mutation.mutateAsync({ ...body, amount: body.amount as number });
      toast({
        title: 'Payout Created',
        description: `${formatMoney(payout.amount)} to ${payout.publisher_name || payout.publisher_email} has been recorded.`,
      });
      onClose();
    },
    (errors) => {
      // The spec's toast for a missing publisher; other mistakes are shown at their fields.
      if (errors.publisher_id) {
        toast({
          title: 'Validation Error',
          description: 'Please select a publisher.',
          variant: 'destructive',
        });
      }
    },
  );

  return (
    <FormModal
      {...modal}
      title="Record Payout"
      submitLabel="Record Payout"
      submitDisabled={noPublishers}
      size="md"
      onSubmit={handleSubmit}
    >
      {approved.isPending ? (
        <Skeleton height={60} />
      ) : noPublishers ? (
        <NoticeAlert title="No Publishers Found" icon={<IconUserOff size={18} />}>
          Payouts can only go to approved publishers. Approve a publisher first.
        </NoticeAlert>
      ) : (
        <SearchSelect
          label="Publisher"
          placeholder="Search approved publishers"
          withAsterisk
          nothingFoundMessage="No Publishers Found"
          useOptions={useApprovedOptions}
          {...pickerProps(form, 'publisher_id')}
        />
      )}
      <MoneyInput
        label="Amount"
        placeholder="0.00"
        withAsterisk
        prefix={currencySymbol()}
        {...form.getInputProps('amount')}
      />
      <Select
        label="What it is"
        allowDeselect={false}
        data={[
          { value: 'advance', label: 'Advance on earnings (deducted from the next run)' },
          { value: 'bonus', label: 'Bonus (added to earnings)' },
          { value: 'correction', label: 'Correction (added to earnings)' },
        ]}
        {...form.getInputProps('reason')}
      />
      <GrowingTextarea
        label="Notes"
        placeholder="e.g. Weekly payout, wire ref 1234"
        {...form.getInputProps('notes')}
      />
    </FormModal>
  );
}
