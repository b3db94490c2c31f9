import { type Tracker, trackers } from '@contract/ingest-mapping.ts';
import { type AdminIntegration, CreateIntegration } from '@contract/integrations.ts';
import { presetOf } from '@contract/tracker-presets.ts';
import { Checkbox, Select, Stack, Text, TextInput } from '@mantine/core';
import { useCallback } from 'react';
import { FormModal } from '@/components/form-modal.tsx';
import { GrowingTextarea } from '@/components/forms/growing-textarea.tsx';
import { type CreateModalProps, useCreateModalForm } from '@/components/forms/use-modal-form.ts';
import { useCreateIntegration } from '@/features/admin/integrations/api/create-integration.ts';
import {
  accountIdHelp,
  detailIssues,
  errorsByInput,
  ipsOf,
  SignatureFields,
  type SignatureValues,
  signatureOf,
  TimeZoneSelect,
} from './settings-fields.tsx';

type FormValues = SignatureValues & {
  /** '' until one is chosen. */
  tracker: Tracker | '';
  name: string;
  account_id: string;
  /** '' for UTC. */
  time_zone: string;
  /** One address or CIDR range per line. */
  allowed_ips: string;
  signed: boolean;
};

const blank: FormValues = {
  tracker: '',
  name: '',
  account_id: '',
  time_zone: '',
  allowed_ips: '',
  signed: false,
  signature_scheme: 'hmac-sha256',
  signature_secret: '',
  signature_header: '',
};

const trackerChoices = trackers.map((t) => ({ value: t, label: presetOf(t).label }));

/** The request body; left-out settings are filled from the tracker's preset by the server. */
export function createBody(v: FormValues): CreateIntegration {
  const account = v.account_id.trim();
  return {
    name: v.name,
    tracker: v.tracker || 'generic',
    allowed_ips: ipsOf(v.allowed_ips),
    field_map: {},
    ...(account ? { account_id: account } : {}),
    ...(v.time_zone ? { time_zone: v.time_zone } : {}),
    ...(v.signed ? { signature: signatureOf(v) } : {}),
  };
}

function validate(v: FormValues): Record<string, string> {
  const result = CreateIntegration.safeParse(createBody(v));
  const errors = result.success ? {} : errorsByInput(result.error.issues);
  if (!v.tracker) errors.tracker = 'Choose the tracker that sends the calls.';
  return errors;
}

/**
 * A new integration: the tracker first (its preset fills the mapping), then a name, the
 * tracker account, the time zone of offset-less timestamps and an optional signature check.
 * `onCreated` then shows the key once, with the setup instructions.
 */
export function CreateIntegrationModal(
  props: CreateModalProps<{ integration: AdminIntegration; key: string }>,
) {
  const { form, modal, handleSubmit } = useCreateModalForm(props, useCreateIntegration(), {
    initial: () => blank,
    validate,
    failTitle: 'Failed to create integration',
    serverErrors: (err) => {
      const errors = errorsByInput(detailIssues(err.details));
      if (err.code === 'conflict') errors.name = err.message;
      return errors;
    },
    toBody: createBody,
  });

  const preset = form.values.tracker ? presetOf(form.values.tracker) : null;
  const { setFieldValue } = form;
  const setTimeZone = useCallback(
    (zone: string) => setFieldValue('time_zone', zone),
    [setFieldValue],
  );

  function handleTracker(value: string | null) {
    const tracker = (value ?? '') as Tracker | '';
    form.setFieldValue('tracker', tracker);
    const suggested = tracker ? presetOf(tracker).signature : undefined;
    // The tracker's own signature scheme is the likely one; the admin may still change it.
    if (suggested) form.setFieldValue('signature_scheme', suggested);
  }

  const signatureErrors = {
    signature_scheme: form.errors.signature_scheme as string | undefined,
    signature_secret: form.errors.signature_secret as string | undefined,
    signature_header: form.errors.signature_header as string | undefined,
  };

  return (
    <FormModal
      {...modal}
      title="New Integration"
      submitLabel="Create Integration"
      onSubmit={handleSubmit}
    >
      <Select
        label="Tracker"
        description="The call tracker that sends the calls: its preset fills the mapping, and everything stays editable."
        placeholder="Choose the tracker"
        withAsterisk
        data-autofocus
        data={trackerChoices}
        value={form.values.tracker || null}
        error={form.errors.tracker}
        onChange={handleTracker}
        comboboxProps={{ withinPortal: true }}
      />
      {preset ? (
        <Text size="sm" c="dimmed">
          {preset.setup.length === 1
            ? 'One thing to set up in the tracker'
            : `${preset.setup.length} things to set up in the tracker`}
          {preset.sendsPublisher
            ? '.'
            : '; it does not say which publisher sent a call, so its calls are attributed by tracking number.'}
        </Text>
      ) : null}
      <TextInput
        label="Name"
        placeholder={preset ? `e.g. ${preset.label} production` : 'e.g. Ringba production'}
        withAsterisk
        {...form.getInputProps('name')}
      />
      <TextInput
        label="Account id"
        description={accountIdHelp}
        placeholder="Optional"
        {...form.getInputProps('account_id')}
      />
      <TimeZoneSelect
        value={form.values.time_zone}
        error={form.errors.time_zone}
        onChange={setTimeZone}
      />
      <GrowingTextarea
        label="Allowed source addresses"
        description="One IP address or CIDR range per line (e.g. 203.0.113.0/24). Leave empty to accept calls from anywhere."
        {...form.getInputProps('allowed_ips')}
      />
      <Stack gap="sm">
        <Checkbox
          label="Check the tracker's signature"
          description={
            preset?.signature
              ? `${preset.label} can sign its requests; a request without a valid signature is refused.`
              : 'A request without a valid signature is refused.'
          }
          {...form.getInputProps('signed', { type: 'checkbox' })}
        />
        {form.values.signed ? (
          <SignatureFields
            values={form.values}
            errors={signatureErrors}
            onChange={(patch) => form.setValues(patch)}
          />
        ) : null}
      </Stack>
    </FormModal>
  );
}
