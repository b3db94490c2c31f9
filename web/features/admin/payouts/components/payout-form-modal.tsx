import { CreatePayout } from '@contract/admin.ts';
import { Alert, NumberInput, Select, Skeleton, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconUserOff } from '@tabler/icons-react';
import { useEffect, useMemo } from 'react';
import { FormModal } from '@/components/form-modal.tsx';
import { type SearchOption, SearchSelect } from '@/components/search-select.tsx';
import { serverFieldErrors, validateWithSchema } from '@/components/zod-form.ts';
import { useCreatePayout } from '@/features/admin/payouts/api/create-payout.ts';
import { useApprovedPublishers } from '@/features/admin/payouts/api/list-approved-publishers.ts';
import { ApiError } from '@/lib/api-client.ts';
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

function useApprovedOptions(q: string) {
  const query = useApprovedPublishers(q);
  const options = useMemo<SearchOption[]>(
    () =>
      (query.data?.items ?? []).map((p) => ({
        value: p.id,
        label: p.name ? `${p.name} (${p.email})` : p.email,
      })),
    [query.data],
  );
  return { options, isFetching: query.isFetching };
}

/** Records a payout (dated now) to an approved publisher. */
export function PayoutFormModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const mutation = useCreatePayout();
  const approved = useApprovedPublishers('');
  const noPublishers = approved.data?.total === 0;
  const form = useForm<PayoutFormValues>({
    mode: 'controlled',
    initialValues: emptyValues,
    validate,
    // Checked on submit (a message appearing on blur would shift the button under the pointer);
    // a field's message goes away as soon as it is edited.
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new opening starts a new payout
  useEffect(() => {
    if (opened) {
      form.setValues(emptyValues);
      form.resetDirty(emptyValues);
      form.clearErrors();
    }
  }, [opened]);

  function handleClose() {
    if (!mutation.isPending) onClose();
  }

  const handleSubmit = form.onSubmit(
    async (values) => {
      try {
        const body = toBody(values);
        const payout = await mutation.mutateAsync({ ...body, amount: body.amount as number });
        toast({
          title: 'Payout Created',
          description: `${formatMoney(payout.amount)} to ${payout.publisher_name || payout.publisher_email} has been recorded.`,
        });
        onClose();
      } catch (err) {
        if (err instanceof ApiError) form.setErrors(serverFieldErrors(err.details, fields));
        toast({
          title: 'Failed to create payout',
          description: err instanceof Error && err.message ? err.message : 'Something went wrong',
          variant: 'destructive',
        });
      }
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

  const publisherProps = form.getInputProps('publisher_id');

  return (
    <FormModal
      opened={opened}
      onClose={handleClose}
      title="Record Payout"
      dirty={form.isDirty()}
      pending={mutation.isPending}
      submitLabel="Record Payout"
      submitDisabled={noPublishers}
      size="md"
      onSubmit={handleSubmit}
    >
      {approved.isPending ? (
        <Skeleton height={60} />
      ) : noPublishers ? (
        <Alert
          color="yellow"
          variant="light"
          title="No Publishers Found"
          icon={<IconUserOff size={18} />}
          role="status"
          styles={{ title: { color: 'var(--mantine-color-black)' } }}
        >
          Payouts can only go to approved publishers. Approve a publisher first.
        </Alert>
      ) : (
        <SearchSelect
          label="Publisher"
          placeholder="Search approved publishers"
          withAsterisk
          nothingFoundMessage="No Publishers Found"
          useOptions={useApprovedOptions}
          value={form.values.publisher_id || null}
          error={publisherProps.error}
          onBlur={publisherProps.onBlur}
          onChange={(v) => form.setFieldValue('publisher_id', v ?? '')}
        />
      )}
      <NumberInput
        label="Amount"
        placeholder="0.00"
        withAsterisk
        prefix={currencySymbol()}
        min={0}
        step={0.01}
        decimalScale={2}
        thousandSeparator=","
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
      <Textarea
        label="Notes"
        placeholder="e.g. Weekly payout, wire ref 1234"
        autosize
        minRows={2}
        maxRows={6}
        {...form.getInputProps('notes')}
      />
    </FormModal>
  );
}
