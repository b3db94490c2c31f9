import {
  type WebhookEndpointWithSecret,
  type WebhookEventType,
  webhookEventTypes,
} from '@contract/outbound.ts';
import { TextInput } from '@mantine/core';
import { FormModal } from '@/components/form-modal.tsx';
import { ChoiceCheckboxes } from '@/components/forms/choice-checkboxes.tsx';
import { type CreateModalProps, useCreateModalForm } from '@/components/forms/use-modal-form.ts';
import { serverFieldErrors } from '@/components/zod-form.ts';
import { useCreateWebhook } from '@/features/admin/webhooks/api/webhooks.ts';

type FormValues = { url: string; description: string; events: WebhookEventType[] };

const blank = (): FormValues => ({ url: '', description: '', events: [] });

function validate(v: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!/^https?:\/\/\S+$/i.test(v.url.trim())) errors.url = 'Enter a full http:// or https:// URL.';
  if (v.events.length === 0) errors.events = 'Choose at least one event type.';
  return errors;
}

/** A new endpoint: its URL, what it is for, and the event types it receives. */
export function CreateWebhookModal(props: CreateModalProps<WebhookEndpointWithSecret>) {
  const { form, modal, handleSubmit } = useCreateModalForm(props, useCreateWebhook(), {
    initial: blank,
    validate,
    failTitle: 'Failed to create webhook endpoint',
    serverErrors: (err) => serverFieldErrors(err.details, ['url', 'events']),
    toBody: (v: FormValues) => ({
      url: v.url.trim(),
      events: v.events,
      ...(v.description.trim() ? { description: v.description.trim() } : {}),
    }),
  });

  return (
    <FormModal
      {...modal}
      title="New Webhook Endpoint"
      submitLabel="Create Endpoint"
      onSubmit={handleSubmit}
    >
      <TextInput
        label="URL"
        description="Where the portal POSTs each event, signed (Standard Webhooks)."
        placeholder="https://example.com/hooks/portal"
        withAsterisk
        data-autofocus
        {...form.getInputProps('url')}
      />
      <TextInput
        label="Description"
        placeholder="e.g. CRM sync"
        {...form.getInputProps('description')}
      />
      <ChoiceCheckboxes
        label="Events"
        withAsterisk
        twoColumns
        choices={webhookEventTypes.map((t) => ({ value: t, label: t }))}
        {...form.getInputProps('events')}
      />
    </FormModal>
  );
}
