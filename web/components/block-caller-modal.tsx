import type { BlockedCaller, CreateBlockedCaller } from '@contract/fraud.ts';
import { SegmentedControl, Textarea, TextInput } from '@mantine/core';
import { FormModal } from '@/components/form-modal.tsx';
import { useCreateModalForm } from '@/components/forms/use-modal-form.ts';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { fraudRoutes } from '@/lib/fraud-routes.ts';
import { toast } from '@/lib/notify.ts';

type Values = { kind: 'number' | 'prefix'; value: string; reason: string; expires: string };

/**
 * "Block caller" (issue 32): a number (any format) or a prefix, a reason and an optional expiry.
 * Admin → Fraud adds entries with it, and a lead's detail blocks its caller (`number` given).
 * A call from a blocked caller is still recorded, rejected with the reason, never payable.
 */
export function BlockCallerModal({
  opened,
  onClose,
  number,
}: {
  opened: boolean;
  onClose: () => void;
  /** The caller to block (a lead's); the dialog then blocks that number only. */
  number?: string | null;
}) {
  const block = useApiMutation(
    (body: CreateBlockedCaller) => apiCall(fraudRoutes.block, { body }),
    ['admin'],
  );
  const { form, modal, handleSubmit } = useCreateModalForm<
    Values,
    CreateBlockedCaller,
    BlockedCaller
  >(
    {
      opened,
      onClose,
      onCreated: (b) => {
        toast({ title: 'Caller blocked', description: `${b.value}: ${b.reason}` });
        onClose();
      },
    },
    block,
    {
      initial: () => ({ kind: 'number', value: number ?? '', reason: '', expires: '' }),
      validate: (v) => ({
        ...(v.value.trim() ? {} : { value: 'Give the number or prefix to block.' }),
        ...(v.reason.trim() ? {} : { reason: 'Say why (a reason is required).' }),
        ...(v.expires && Number.isNaN(new Date(v.expires).getTime())
          ? { expires: 'Use a date such as 2026-12-31.' }
          : {}),
      }),
      target: number,
      failTitle: 'Failed to block caller',
      serverErrors: (err) =>
        err.details ? { value: Object.values(err.details)[0]?.[0] } : { value: err.message },
      toBody: (v) => ({
        [v.kind]: v.value.trim(),
        reason: v.reason.trim(),
        expires_at: v.expires ? new Date(v.expires).toISOString() : null,
      }),
    },
  );
  const fixed = Boolean(number);
  return (
    <FormModal
      {...modal}
      title={fixed ? 'Block this caller' : 'Block a caller'}
      submitLabel="Block"
      size="md"
      onSubmit={handleSubmit}
    >
      {fixed ? null : (
        <SegmentedControl
          data={[
            { value: 'number', label: 'Number' },
            { value: 'prefix', label: 'Prefix' },
          ]}
          {...form.getInputProps('kind')}
        />
      )}
      <TextInput
        label={form.values.kind === 'prefix' ? 'Prefix' : 'Number'}
        description={
          form.values.kind === 'prefix'
            ? 'The leading digits with the country code, e.g. +1900.'
            : 'Any format; without a country code it is read in the country set in Settings.'
        }
        required
        readOnly={fixed}
        {...form.getInputProps('value')}
      />
      <Textarea label="Reason" required autosize minRows={2} {...form.getInputProps('reason')} />
      <TextInput
        label="Expires"
        description="Optional: the block ends on this date."
        type="date"
        {...form.getInputProps('expires')}
      />
    </FormModal>
  );
}
