import {
  type WebhookEndpointWithSecret,
  type WebhookEventType,
  webhookEventTypes,
} from '@contract/outbound.ts';
import { Checkbox, SimpleGrid, TextInput } from '@mantine/core';
import { FormModal } from '@/components/form-modal.tsx';
import { useModalForm } from '@/components/forms/use-modal-form.ts';
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
export function CreateWebhookModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (created: WebhookEndpointWithSecret) => void;
}) {
  const create = useCreateWebhook();
  const { form, submit, modal } = useModalForm<FormValues>({
    opened,
    onClose,
    pending: create.isPending,
    initial: blank,
    validate,
    failTitle: 'Failed to create webhook endpoint',
    serverErrors: (err) => {
      const d = err.details ?? {};
      return {
        ...(d.url ? { url: d.url[0] } : {}),
        ...(d.events ? { events: d.events[0] } : {}),
      };
    },
  });

  const handleSubmit = submit(async (v) => {
    onCreated(
      await create.mutateAsync({
        url: v.url.trim(),
        events: v.events,
        ...(v.description.trim() ? { description: v.description.trim() } : {}),
      }),
    );
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
      <Checkbox.Group label="Events" withAsterisk {...form.getInputProps('events')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mt="xs">
          {webhookEventTypes.map((t) => (
            <Checkbox key={t} value={t} label={t} />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
    </FormModal>
  );
}
