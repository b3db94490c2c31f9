import {
  type ApiKeyScope,
  apiKeyScopeLabels,
  apiKeyScopesByRole,
  type CreatedApiKey,
} from '@contract/api-keys.ts';
import type { Role } from '@contract/roles.ts';
import { Select, TextInput } from '@mantine/core';
import { FormModal } from '@/components/form-modal.tsx';
import { ChoiceCheckboxes } from '@/components/forms/choice-checkboxes.tsx';
import { type CreateModalProps, useCreateModalForm } from '@/components/forms/use-modal-form.ts';
import { serverFieldErrors } from '@/components/zod-form.ts';
import { useCreateApiKey } from './api-keys-api.ts';

/** How long a new key works: a choice of lengths rather than a calendar. */
export const expiryChoices = [
  { value: 'never', label: 'Never (until revoked)' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In 1 year' },
] as const;

type FormValues = {
  name: string;
  scopes: ApiKeyScope[];
  expires_at: (typeof expiryChoices)[number]['value'];
};

const blank = (): FormValues => ({ name: '', scopes: [], expires_at: '90' });

function validate(v: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!v.name.trim()) errors.name = 'Give the key a name.';
  if (v.scopes.length === 0) errors.scopes = 'Choose at least one scope.';
  return errors;
}

/** The expiry a choice means, from now (null: never). */
function expiresAt(expiry: FormValues['expires_at'], now = Date.now()): string | null {
  return expiry === 'never' ? null : new Date(now + Number(expiry) * 86_400_000).toISOString();
}

/**
 * A new API key: a name, the scopes the user's role may give (checkboxes), an expiry.
 * `onCreated` then shows the key once.
 */
export function CreateApiKeyModal({
  userRole,
  ...props
}: CreateModalProps<CreatedApiKey> & { userRole: Role }) {
  const { form, modal, handleSubmit } = useCreateModalForm(props, useCreateApiKey(), {
    initial: blank,
    validate,
    failTitle: 'Failed to create API key',
    serverErrors: (err) => serverFieldErrors(err.details, ['name', 'scopes', 'expires_at']),
    toBody: (v: FormValues) => ({
      name: v.name.trim(),
      scopes: v.scopes,
      expires_at: expiresAt(v.expires_at),
    }),
  });

  return (
    <FormModal
      {...modal}
      size="md"
      title="New API Key"
      submitLabel="Create Key"
      onSubmit={handleSubmit}
    >
      <TextInput
        label="Name"
        description="What the key is for, so you can tell it apart later."
        placeholder="e.g. Nightly export"
        withAsterisk
        data-autofocus
        {...form.getInputProps('name')}
      />
      <ChoiceCheckboxes
        label="Scopes"
        description="What the key may read or change. It never gets more than your own account can."
        withAsterisk
        choices={apiKeyScopesByRole[userRole].map((scope) => ({
          value: scope,
          label: `${apiKeyScopeLabels[scope]} (${scope})`,
        }))}
        {...form.getInputProps('scopes')}
      />
      <Select
        label="Expires"
        data={expiryChoices.map((c) => ({ value: c.value, label: c.label }))}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        {...form.getInputProps('expires_at')}
      />
    </FormModal>
  );
}
