import '@mantine/dates/styles.css';
import { CAMPAIGN_MESSAGES, CreateCampaignBody } from '@contract/buyer.ts';
import { NumberInput, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { schemaResolver, useForm } from '@mantine/form';
import { FormModal } from '@/components/form-modal.tsx';
import { useCreateCampaign } from '@/features/buyer/api/create-campaign.ts';
import { ApiError } from '@/lib/api-client.ts';
import { useAuth } from '@/lib/auth.tsx';
import { toast } from '@/lib/notify.ts';

type CampaignFormValues = {
  name: string;
  goal: string;
  target_audience: string;
  location: string;
  /** '' while blank: the contract turns a blank budget into null. */
  budget: number | string;
  start_date: string | null;
  end_date: string | null;
};

const emptyValues: CampaignFormValues = {
  name: '',
  goal: '',
  target_audience: '',
  location: '',
  budget: '',
  start_date: null,
  end_date: null,
};

const resolveContract = schemaResolver(CreateCampaignBody, { sync: true });

// The contract checks the dates' order only once every field is valid; the dialog says it at once.
function validateCampaign(values: CampaignFormValues) {
  const errors = resolveContract(values);
  const { start_date: start, end_date: end } = values;
  if (start && end && end < start && !errors.end_date) {
    errors.end_date = CAMPAIGN_MESSAGES.endBeforeStart;
  }
  return errors;
}

type CreateCampaignDialogProps = {
  opened: boolean;
  onClose: () => void;
};

function toastCreateError(description: string) {
  toast({ title: 'Error creating campaign', description, variant: 'destructive' });
}

/** The Create Campaign dialog: validated by the same contract schema the server uses. */
export function CreateCampaignDialog({ opened, onClose }: CreateCampaignDialogProps) {
  const { session } = useAuth();
  const createMutation = useCreateCampaign();
  const form = useForm<CampaignFormValues>({
    mode: 'controlled',
    initialValues: emptyValues,
    validate: validateCampaign,
    validateInputOnBlur: true,
  });

  function handleClose() {
    if (createMutation.isPending) return;
    form.reset();
    onClose();
  }
  const handleSubmit = form.onSubmit(async (values) => {
    if (!session) {
      toastCreateError(CAMPAIGN_MESSAGES.notLoggedIn);
      return;
    }
    const parsed = CreateCampaignBody.safeParse(values);
    if (!parsed.success) return; // the form shows the messages already
    try {
      await createMutation.mutateAsync(parsed.data);
      toast({ title: CAMPAIGN_MESSAGES.created });
      form.reset();
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        toastCreateError(CAMPAIGN_MESSAGES.notLoggedIn);
        return;
      }
      if (err instanceof ApiError && err.details) {
        const errors: Record<string, string> = {};
        for (const [field, messages] of Object.entries(err.details)) {
          if (field in emptyValues && messages[0]) errors[field] = messages[0];
        }
        form.setErrors(errors);
      }
      toastCreateError(err instanceof Error && err.message ? err.message : 'Something went wrong');
    }
  });

  const pending = createMutation.isPending;
  const startProps = form.getInputProps('start_date');

  // A new start date can make (or stop making) the end date wrong: check it again.
  function handleStartChange(value: string | null) {
    startProps.onChange(value);
    if (form.isTouched('end_date') || form.errors.end_date) form.validateField('end_date');
  }

  return (
    <FormModal
      opened={opened}
      onClose={handleClose}
      title="Create Campaign"
      dirty={form.isDirty()}
      pending={pending}
      submitLabel="Create Campaign"
      pendingLabel="Creating…"
      actionsGap="sm"
      onSubmit={handleSubmit}
    >
      <TextInput
        label="Campaign name"
        placeholder="e.g. Spring Medicare push"
        withAsterisk
        data-autofocus
        {...form.getInputProps('name')}
      />
      <Textarea
        label="Goal"
        placeholder="What should this campaign achieve?"
        autosize
        minRows={2}
        maxRows={5}
        {...form.getInputProps('goal')}
      />
      <TextInput
        label="Target audience"
        placeholder="e.g. Seniors 65+ looking for Medicare plans"
        {...form.getInputProps('target_audience')}
      />
      <TextInput
        label="Location"
        placeholder="e.g. Florida, USA"
        {...form.getInputProps('location')}
      />
      <NumberInput
        label="Budget"
        description="Optional. Leave blank if there is no set budget."
        placeholder="0.00"
        leftSection="$"
        min={0}
        step={0.01}
        decimalScale={2}
        thousandSeparator=","
        allowNegative={false}
        hideControls
        {...form.getInputProps('budget')}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <DateInput
          label="Start date"
          placeholder="YYYY-MM-DD"
          valueFormat="YYYY-MM-DD"
          clearable
          popoverProps={{ withinPortal: true }}
          {...startProps}
          onChange={handleStartChange}
        />
        <DateInput
          label="End date"
          placeholder="YYYY-MM-DD"
          valueFormat="YYYY-MM-DD"
          clearable
          popoverProps={{ withinPortal: true }}
          {...form.getInputProps('end_date')}
        />
      </SimpleGrid>
    </FormModal>
  );
}
