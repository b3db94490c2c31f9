import { type AdminOffer, CreateOffer } from '@contract/admin.ts';
import type { OfferStatus } from '@contract/roles.ts';
import { Autocomplete, Text, TextInput } from '@mantine/core';
import { FormModal } from '@/components/form-modal.tsx';
import { GrowingTextarea } from '@/components/forms/growing-textarea.tsx';
import { LabeledSegmentedControl } from '@/components/forms/labeled-segmented-control.tsx';
import { MoneyInput } from '@/components/forms/money-input.tsx';
import { useModalForm } from '@/components/forms/use-modal-form.ts';
import { serverFieldErrors, validateWithSchema } from '@/components/zod-form.ts';
import { useCreateOffer } from '@/features/admin/offers/api/create-offer.ts';
import { useUpdateOffer } from '@/features/admin/offers/api/update-offer.ts';
import { toast } from '@/lib/notify.ts';
import {
  OfferRulesFields,
  type RuleValues,
  ruleFieldOf,
  rulesBody,
  ruleValuesOf,
} from './offer-rules-fields.tsx';
import { ScriptAckFields, type ScriptAckValues } from './script-ack-fields.tsx';

type OfferFormValues = RuleValues &
  ScriptAckValues & {
    title: string;
    vertical: string;
    /** '' while blank. */
    payout: number | string;
    script_instructions: string;
    status: OfferStatus;
  };

const fields = [
  'title',
  'vertical',
  'payout',
  'script_instructions',
  'script_ack_mode',
  'script_ack_days',
  'status',
] as const;

/** Verticals an affiliate network usually runs; any other text is accepted too. */
const commonVerticals = [
  'ACA Health',
  'Auto Insurance',
  'Debt Relief',
  'Final Expense',
  'Home Services',
  'Home Warranty',
  'Legal',
  'Medicare',
  'Solar',
  'Tax Relief',
];

function toBody(values: OfferFormValues) {
  const script = values.script_instructions.trim();
  return {
    title: values.title,
    vertical: values.vertical,
    payout: values.payout === '' ? undefined : Number(values.payout),
    script_instructions: script ? values.script_instructions : null,
    script_ack_mode: values.script_ack_mode,
    script_ack_days: values.script_ack_days === '' ? undefined : Number(values.script_ack_days),
    status: values.status,
    ...rulesBody(values),
  };
}

const validateBase = validateWithSchema(CreateOffer, toBody);

/** The contract's messages on the form's fields; a rule's error on its own field. */
function validate(values: OfferFormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [key, message] of Object.entries(validateBase(values))) {
    if (key !== 'rules' && key !== 'payout_overrides') errors[key] = message;
  }
  const result = CreateOffer.safeParse(toBody(values));
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = ruleFieldOf(issue.path);
      if (field && !errors[field]) errors[field] = issue.message;
    }
  }
  return errors;
}

/** The admin's own zone is the first guess for open hours. */
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

function valuesOf(offer: AdminOffer | null): OfferFormValues {
  return {
    title: offer?.title ?? '',
    vertical: offer?.vertical ?? '',
    payout: offer?.payout ?? '',
    script_instructions: offer?.script_instructions ?? '',
    script_ack_mode: offer?.script_ack_mode ?? 'flag',
    script_ack_days: offer?.script_ack_days ?? 7,
    status: offer?.status ?? 'active',
    ...ruleValuesOf(offer, browserZone()),
  };
}

/** Server `details` keyed by contract path (`rules.daily_cap`) onto the form's fields. */
function serverErrors(details: Record<string, string[]> | undefined) {
  const errors = serverFieldErrors(details, fields);
  for (const [path, messages] of Object.entries(details ?? {})) {
    const field = ruleFieldOf(path.split('.'));
    if (field && messages[0] && !errors[field]) errors[field] = messages[0];
  }
  return errors;
}

type OfferFormModalProps = {
  opened: boolean;
  /** The offer to edit, or null to create one. */
  offer: AdminOffer | null;
  onClose: () => void;
};

/** Create or edit an offer: title, vertical and payout required; status active by default. */
export function OfferFormModal({ opened, offer, onClose }: OfferFormModalProps) {
  const createMutation = useCreateOffer();
  const updateMutation = useUpdateOffer();
  const isEdit = offer !== null;
  const pending = createMutation.isPending || updateMutation.isPending;
  const { form, submit, modal } = useModalForm<OfferFormValues>({
    opened,
    onClose,
    pending,
    initial: () => valuesOf(offer),
    validate,
    // A new target (another offer, or create after edit) starts from its own values.
    target: offer?.id,
    failTitle: isEdit ? 'Failed to update offer' : 'Failed to create offer',
    serverErrors: (err) => serverErrors(err.details),
  });

  const handleSubmit = submit(async (values) => {
    const body = toBody(values);
    if (offer) {
      const saved = await updateMutation.mutateAsync({
        id: offer.id,
        body: { ...body, payout: body.payout as number },
      });
      toast({ title: 'Offer Updated', description: `"${saved.title}" has been saved.` });
    } else {
      const saved = await createMutation.mutateAsync({ ...body, payout: body.payout as number });
      toast({ title: 'Offer Created', description: `"${saved.title}" has been created.` });
    }
    onClose();
  });

  return (
    <FormModal
      {...modal}
      title={isEdit ? 'Edit Offer' : 'Create Offer'}
      submitLabel={isEdit ? 'Save changes' : 'Create Offer'}
      onSubmit={handleSubmit}
    >
      <TextInput
        label="Title"
        placeholder="e.g. Medicare Advantage inbound"
        withAsterisk
        data-autofocus
        {...form.getInputProps('title')}
      />
      <Autocomplete
        label="Vertical"
        placeholder="e.g. Medicare"
        withAsterisk
        data={commonVerticals}
        {...form.getInputProps('vertical')}
      />
      <MoneyInput
        label="Payout"
        description="Paid to the publisher per qualified call, in USD."
        placeholder="0.00"
        withAsterisk
        {...form.getInputProps('payout')}
      />
      <GrowingTextarea
        label="Script instructions"
        description="What publishers must say or do on the call. Each change is a new version approved publishers acknowledge."
        minRows={3}
        maxRows={10}
        {...form.getInputProps('script_instructions')}
      />
      <ScriptAckFields form={form} />
      <LabeledSegmentedControl
        id="offer-status-label"
        label="Status"
        note="Publishers see and apply to active offers only."
        data={[
          { value: 'active', label: 'Active' },
          { value: 'inactive', label: 'Inactive' },
        ]}
        {...form.getInputProps('status')}
      />
      <OfferRulesFields form={form} offer={offer} />
      {form.errors.form ? (
        <Text c="red" size="sm" role="alert">
          {form.errors.form}
        </Text>
      ) : null}
    </FormModal>
  );
}
