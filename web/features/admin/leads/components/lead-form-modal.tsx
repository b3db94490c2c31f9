import '@mantine/dates/styles.css';
import { CreateLead } from '@contract/admin.ts';
import type { LeadStatus } from '@contract/roles.ts';
import { Select, SimpleGrid } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import dayjs from 'dayjs';
import { FormModal } from '@/components/form-modal.tsx';
import { MoneyInput } from '@/components/forms/money-input.tsx';
import { pickerProps, useModalForm } from '@/components/forms/use-modal-form.ts';
import { WholeNumberInput } from '@/components/forms/whole-number-input.tsx';
import { OfferSelect, PublisherSelect } from '@/components/search-select.tsx';
import { serverFieldErrors, validateWithSchema } from '@/components/zod-form.ts';
import { useCreateLead } from '@/features/admin/leads/api/create-lead.ts';
import { formatMoney } from '@/lib/format.ts';
import { toast } from '@/lib/notify.ts';
import { leadStatusOptions } from './lead-status.tsx';

type LeadFormValues = {
  publisher_id: string;
  offer_id: string;
  /** '' means "the offer's payout". */
  payout: number | string;
  status: LeadStatus;
  call_duration: number | string;
  /** `YYYY-MM-DD HH:mm:ss` in local time, as the picker gives it. */
  timestamp: string | null;
};

const fields = ['publisher_id', 'offer_id', 'payout', 'status', 'call_duration', 'timestamp'];

function toBody(v: LeadFormValues) {
  return {
    publisher_id: v.publisher_id,
    offer_id: v.offer_id,
    payout: v.payout === '' ? undefined : Number(v.payout),
    status: v.status,
    call_duration: v.call_duration === '' ? 0 : Number(v.call_duration),
    timestamp: v.timestamp ? dayjs(v.timestamp).toISOString() : undefined,
  };
}

const validateContract = validateWithSchema(CreateLead, toBody);

// The server refuses a lead dated in the future; the form says so before sending.
function validate(values: LeadFormValues) {
  const errors = validateContract(values);
  if (values.timestamp && dayjs(values.timestamp).isAfter(dayjs().add(1, 'minute'))) {
    errors.timestamp = 'A lead cannot be dated in the future.';
  }
  return errors;
}

function freshValues(): LeadFormValues {
  return {
    publisher_id: '',
    offer_id: '',
    payout: '',
    status: 'pending',
    call_duration: '',
    timestamp: dayjs().format('YYYY-MM-DD HH:mm:ss'),
  };
}

/** Records a lead by hand; the payout starts at the chosen offer's. */
export function LeadFormModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const mutation = useCreateLead();
  const { form, submit, modal } = useModalForm<LeadFormValues>({
    opened,
    onClose,
    pending: mutation.isPending,
    initial: freshValues,
    validate,
    failTitle: 'Failed to create lead',
    serverErrors: (err) => serverFieldErrors(err.details, fields),
  });

  const handleSubmit = submit(async (values) => {
    const lead = await mutation.mutateAsync(toBody(values));
    toast({
      title: 'Lead Created',
      description: `A ${formatMoney(lead.payout)} lead for ${lead.publisher_name || lead.publisher_email} on "${lead.offer_title}" has been recorded.`,
    });
    onClose();
  });

  return (
    <FormModal {...modal} title="Record Lead" submitLabel="Record Lead" onSubmit={handleSubmit}>
      <PublisherSelect
        label="Publisher"
        placeholder="Search by name or email"
        withAsterisk
        {...pickerProps(form, 'publisher_id')}
      />
      <OfferSelect
        label="Offer"
        placeholder="Search by title or vertical"
        withAsterisk
        {...pickerProps(form, 'offer_id')}
        onChange={(v, option) => {
          form.setFieldValue('offer_id', v ?? '');
          // The payout defaults to the offer's; the admin may change it afterwards.
          form.setFieldValue('payout', option ? option.payout : '');
        }}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <MoneyInput
          label="Payout"
          description="Defaults to the offer's payout."
          placeholder="Offer's payout"
          {...form.getInputProps('payout')}
        />
        <WholeNumberInput
          label="Call duration (min)"
          placeholder="0"
          suffix=" min"
          {...form.getInputProps('call_duration')}
        />
        <Select
          label="Status"
          data={leadStatusOptions}
          allowDeselect={false}
          {...form.getInputProps('status')}
        />
        <DateTimePicker
          label="Timestamp"
          valueFormat="YYYY-MM-DD HH:mm"
          maxDate={dayjs().format('YYYY-MM-DD')}
          {...form.getInputProps('timestamp')}
        />
      </SimpleGrid>
    </FormModal>
  );
}
