import '@mantine/dates/styles.css';
import {
  CAMPAIGN_MESSAGES,
  type Campaign,
  CreateCampaignBody,
  UpdateCampaignBody,
} from '@contract/buyer.ts';
import { SimpleGrid, Textarea, TextInput } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { schemaResolver, useForm } from '@mantine/form';
import { FormModal } from '@/components/form-modal.tsx';
import { MoneyInput } from '@/components/forms/money-input.tsx';
import { useCreateCampaign } from '@/features/buyer/api/create-campaign.ts';
import { useUpdateCampaign } from '@/features/buyer/api/update-campaign.ts';
import { ApiError } from '@/lib/api-client.ts';
import { useAuth } from '@/lib/auth.tsx';
import { dayInputProps } from '@/lib/format.ts';
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

/** What the edit form starts from: the campaign as stored (only budget and dates are sent). */
function valuesOf(c: Campaign): CampaignFormValues {
  return {
    name: c.name,
    goal: c.goal ?? '',
    target_audience: c.target_audience ?? '',
    location: c.location ?? '',
    budget: c.budget ?? '',
    start_date: c.start_date,
    end_date: c.end_date,
  };
}

const editedFields = ({ budget, start_date, end_date }: CampaignFormValues) => ({
  budget,
  start_date,
  end_date,
});

const resolveCreate = schemaResolver(CreateCampaignBody, { sync: true });
const resolveEdit = schemaResolver(UpdateCampaignBody, { sync: true });

// The contract checks the dates' order only once every field is valid; the dialog says it at once.
function validatorFor(editing: boolean) {
  return (values: CampaignFormValues) => {
    const errors = editing ? resolveEdit(editedFields(values)) : resolveCreate(values);
    const { start_date: start, end_date: end } = values;
    if (start && end && end < start && !errors.end_date) {
      errors.end_date = CAMPAIGN_MESSAGES.endBeforeStart;
    }
    return errors;
  };
}

type CreateCampaignDialogProps = {
  opened: boolean;
  onClose: () => void;
};

/** The Create Campaign dialog: validated by the same contract schema the server uses. */
export function CreateCampaignDialog(props: CreateCampaignDialogProps) {
  return <CampaignDialog {...props} />;
}

/** Edit campaign: the budget and dates of one of the buyer's campaigns (issue 34). */
export function EditCampaignDialog(props: CreateCampaignDialogProps & { campaign: Campaign }) {
  return <CampaignDialog {...props} />;
}

function CampaignDialog({
  opened,
  onClose,
  campaign,
}: CreateCampaignDialogProps & { campaign?: Campaign }) {
  const editing = campaign !== undefined;
  const { session } = useAuth();
  const createMutation = useCreateCampaign();
  const updateMutation = useUpdateCampaign();
  const form = useForm<CampaignFormValues>({
    mode: 'controlled',
    initialValues: campaign ? valuesOf(campaign) : emptyValues,
    validate: validatorFor(editing),
    validateInputOnBlur: true,
  });
  const errorTitle = editing ? 'Error updating campaign' : 'Error creating campaign';
  const toastError = (description: string) =>
    toast({ title: errorTitle, description, variant: 'destructive' });
  const pending = createMutation.isPending || updateMutation.isPending;

  function handleClose() {
    if (pending) return;
    form.reset();
    onClose();
  }

  async function send(values: CampaignFormValues): Promise<boolean> {
    if (campaign) {
      const parsed = UpdateCampaignBody.safeParse(editedFields(values));
      if (!parsed.success) return false;
      await updateMutation.mutateAsync({ id: campaign.id, ...parsed.data });
      toast({ title: CAMPAIGN_MESSAGES.updated });
      return true;
    }
    const parsed = CreateCampaignBody.safeParse(values);
    if (!parsed.success) return false; // the form shows the messages already
    await createMutation.mutateAsync(parsed.data);
    toast({ title: CAMPAIGN_MESSAGES.created });
    return true;
  }

  const handleSubmit = form.onSubmit(async (values) => {
    if (!session) {
      toastError(CAMPAIGN_MESSAGES.notLoggedIn);
      return;
    }
    try {
      if (!(await send(values))) return;
      if (!editing) form.reset();
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        toastError(CAMPAIGN_MESSAGES.notLoggedIn);
        return;
      }
      if (err instanceof ApiError && err.details) {
        const errors: Record<string, string> = {};
        for (const [field, messages] of Object.entries(err.details)) {
          if (field in emptyValues && messages[0]) errors[field] = messages[0];
        }
        form.setErrors(errors);
      }
      toastError(err instanceof Error && err.message ? err.message : 'Something went wrong');
    }
  });

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
      title={editing ? `Edit ${campaign.name}` : 'Create Campaign'}
      dirty={form.isDirty()}
      pending={pending}
      submitLabel={editing ? 'Save changes' : 'Create Campaign'}
      pendingLabel={editing ? 'Saving…' : 'Creating…'}
      actionsGap="sm"
      onSubmit={handleSubmit}
    >
      {!editing && (
        <>
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
        </>
      )}
      {/* A minus sign stays typed (and is refused with the contract's message) instead of being
          dropped, which turned "-500" into a budget of $500. */}
      <MoneyInput
        label="Budget"
        description="Optional. Leave blank if there is no set budget."
        placeholder="0.00"
        clampBehavior="none"
        hideControls
        data-autofocus={editing || undefined}
        {...form.getInputProps('budget')}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <DateInput
          label="Start date"
          {...dayInputProps}
          clearable
          popoverProps={{ withinPortal: true }}
          {...startProps}
          onChange={handleStartChange}
        />
        <DateInput
          label="End date"
          {...dayInputProps}
          clearable
          popoverProps={{ withinPortal: true }}
          {...form.getInputProps('end_date')}
        />
      </SimpleGrid>
    </FormModal>
  );
}
