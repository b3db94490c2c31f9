import { type CallField, callFields } from '@contract/ingest-mapping.ts';
import { type AdminIntegration, UpdateIntegration } from '@contract/integrations.ts';
import { presetOf } from '@contract/tracker-presets.ts';
import {
  Button,
  Code,
  Divider,
  Group,
  List,
  MultiSelect,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { type FormEvent, useCallback, useState } from 'react';
import { ErrorAlert } from '@/components/error-alert.tsx';
import { GrowingTextarea } from '@/components/forms/growing-textarea.tsx';
import { useDiscardGuard } from '@/components/use-discard-guard.tsx';
import { useUpdateIntegration } from '@/features/admin/integrations/api/update-integration.ts';
import { ApiError } from '@/lib/api-client.ts';
import { toast } from '@/lib/notify.ts';
import { IntegrationDialog, type IntegrationDialogProps } from './integration-dialog.tsx';
import { MappingEditor } from './mapping-editor.tsx';
import { fieldMapPatch, type MappingEdits } from './rule-draft.ts';
import { schemeLabels } from './rule-words.ts';
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

type Values = SignatureValues & {
  name: string;
  /** One address or CIDR range per line. */
  allowed_ips: string;
  account_id: string;
  time_zone: string;
  call_id_fields: string[];
  secret_params: string[];
  /** keep today's signature, set a new one (replace or add), or remove it. */
  signature: 'keep' | 'set' | 'remove';
  edits: MappingEdits;
};

const valuesOf = (i: AdminIntegration): Values => ({
  name: i.name,
  allowed_ips: i.allowed_ips.join('\n'),
  account_id: i.account_id ?? '',
  time_zone: i.time_zone ?? '',
  call_id_fields: [...i.call_id_fields],
  secret_params: [...i.secret_params],
  signature: 'keep',
  signature_scheme: i.signature?.scheme ?? presetOf(i.tracker).signature ?? 'hmac-sha256',
  signature_secret: '',
  signature_header: '',
  edits: {},
});

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, k) => x === b[k]);

/** The PATCH body: only what changed (a field_map entry null puts the preset's rule back). */
export function updateBody(i: AdminIntegration, v: Values): UpdateIntegration {
  const body: UpdateIntegration = {};
  if (v.name !== i.name) body.name = v.name;
  const ips = ipsOf(v.allowed_ips);
  if (!sameList(ips, i.allowed_ips)) body.allowed_ips = ips;
  const account = v.account_id.trim() || null;
  if (account !== i.account_id) body.account_id = account;
  const zone = v.time_zone || null;
  if (zone !== i.time_zone) body.time_zone = zone;
  if (v.signature === 'remove') body.signature = null;
  if (v.signature === 'set') body.signature = signatureOf(v);
  if (!sameList(v.call_id_fields, i.call_id_fields)) {
    body.call_id_fields = v.call_id_fields as Exclude<CallField, 'call_id'>[];
  }
  const secrets = v.secret_params.map((s) => s.trim()).filter(Boolean);
  if (!sameList(secrets, i.secret_params)) body.secret_params = secrets;
  const fieldMap = fieldMapPatch(v.edits, i.field_map);
  if (Object.keys(fieldMap).length > 0) body.field_map = fieldMap;
  return body;
}

const identifyingFields = callFields
  .filter((f) => f !== 'call_id')
  .map((f) => ({ value: f, label: f }));

/**
 * Edit an integration: name, sources, the tracker account and time zone, the signature
 * (replaced or removed; only its last characters are ever shown), the fields that identify a
 * call without an id, secret parameters, and the mapping of every field. Mounted while open.
 */
export function EditIntegrationModal({ integration, onClose }: IntegrationDialogProps) {
  const update = useUpdateIntegration();
  const preset = presetOf(integration.tracker);
  const [values, setValues] = useState<Values>(() => valuesOf(integration));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<{ message: string; lines: string[] } | null>(null);
  const body = updateBody(integration, values);
  const dirty = Object.keys(body).length > 0 || Object.keys(values.edits).length > 0;
  const guard = useDiscardGuard({ opened: true, dirty, busy: update.isPending, onClose });
  const set = (patch: Partial<Values>) => setValues((v) => ({ ...v, ...patch }));
  const setTimeZone = useCallback(
    (time_zone: string) => setValues((v) => ({ ...v, time_zone })),
    [],
  );

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    setServerError(null);
    if (Object.keys(body).length === 0) {
      onClose();
      return;
    }
    const checked = UpdateIntegration.safeParse(body);
    if (!checked.success) {
      setErrors(errorsByInput(checked.error.issues));
      setServerError({
        message: 'Nothing was sent: fix these first.',
        lines: checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
      });
      return;
    }
    setErrors({});
    try {
      await update.mutateAsync({ id: integration.id, body });
      toast({ title: 'Integration Updated', description: `${values.name} has been saved.` });
      onClose();
    } catch (err) {
      if (err instanceof ApiError) {
        const issues = detailIssues(err.details);
        setErrors(errorsByInput(issues));
        setServerError({
          message: err.message,
          lines: issues
            .map((i) => `${i.path.join('.')}: ${i.message}`)
            .filter((line) => line !== err.message),
        });
      } else {
        setServerError({ message: 'Something went wrong.', lines: [] });
      }
    }
  }

  const sig = integration.signature;
  return (
    <IntegrationDialog
      opened
      onClose={guard.requestClose}
      title={`Edit ${integration.name}`}
      {...guard.modalProps}
    >
      <form onSubmit={handleSubmit} noValidate aria-label={`Edit ${integration.name}`}>
        <Stack gap="md">
          <TextInput
            label="Name"
            withAsterisk
            value={values.name}
            error={errors.name}
            onChange={(e) => set({ name: e.currentTarget.value })}
          />
          <Text size="sm">
            Tracker: <b>{preset.label}</b>
          </Text>
          <GrowingTextarea
            label="Allowed source addresses"
            description="One IP address or CIDR range per line. Leave empty to accept calls from anywhere."
            value={values.allowed_ips}
            error={errors.allowed_ips}
            onChange={(e) => set({ allowed_ips: e.currentTarget.value })}
          />
          <TextInput
            label="Account id"
            description={accountIdHelp}
            value={values.account_id}
            error={errors.account_id}
            onChange={(e) => set({ account_id: e.currentTarget.value })}
          />
          {integration.shares_calls_with.length > 0 ? (
            <Text size="sm">
              Shares calls with: {integration.shares_calls_with.map((s) => s.name).join(', ')}.
            </Text>
          ) : null}
          <TimeZoneSelect
            value={values.time_zone}
            error={errors.time_zone}
            onChange={setTimeZone}
          />

          <Divider />
          <Stack gap="xs">
            <Title order={3} fz="md">
              Signature
            </Title>
            {values.signature === 'remove' ? (
              <Group justify="space-between" gap="xs">
                <Text size="sm">The signature check will be removed on save.</Text>
                <Button
                  size="compact-sm"
                  variant="default"
                  onClick={() => set({ signature: 'keep' })}
                >
                  Keep it
                </Button>
              </Group>
            ) : values.signature === 'set' ? (
              <>
                <SignatureFields values={values} errors={errors} onChange={(patch) => set(patch)} />
                <Group>
                  <Button
                    size="compact-sm"
                    variant="default"
                    onClick={() => set({ signature: 'keep', signature_secret: '' })}
                  >
                    {sig ? 'Keep the current secret' : 'No signature'}
                  </Button>
                </Group>
              </>
            ) : sig ? (
              <Group justify="space-between" gap="xs">
                <Text size="sm">
                  {schemeLabels[sig.scheme]} in <Code>{sig.header}</Code>, secret ending{' '}
                  <Code>{sig.secret_hint}</Code>.
                </Text>
                <Group gap="xs">
                  <Button
                    size="compact-sm"
                    variant="light"
                    onClick={() => set({ signature: 'set' })}
                  >
                    Replace
                  </Button>
                  <Button
                    size="compact-sm"
                    variant="light"
                    color="red"
                    onClick={() => set({ signature: 'remove' })}
                  >
                    Remove
                  </Button>
                </Group>
              </Group>
            ) : (
              <Group justify="space-between" gap="xs">
                <Text size="sm" c="dimmed">
                  Not checked: the key alone lets a request in.
                  {preset.signature
                    ? ` ${preset.label} signs its requests (${schemeLabels[preset.signature]}): add the check to refuse any that is not signed.`
                    : ''}
                </Text>
                <Button size="compact-sm" variant="light" onClick={() => set({ signature: 'set' })}>
                  Add a signature check
                </Button>
              </Group>
            )}
          </Stack>

          <Divider />
          <Stack gap="xs">
            <Title order={3} fz="md">
              Mapping
            </Title>
            <Text size="sm" c="dimmed">
              How each field of a call is read from what {preset.label} sends. Open a field to
              change its rule.
            </Text>
            <MappingEditor
              current={integration.field_map}
              preset={preset.mapping}
              edits={values.edits}
              errors={errors}
              onChange={(edits) => set({ edits })}
            />
          </Stack>
          <MultiSelect
            label="Fields that identify a call when it has no call id"
            description="Together they stand for the call id (e.g. caller and timestamp)."
            data={identifyingFields}
            value={values.call_id_fields}
            error={errors.call_id_fields}
            onChange={(call_id_fields) => set({ call_id_fields })}
            clearable
            comboboxProps={{ withinPortal: true }}
          />
          <TagsInput
            label="Secret parameters"
            description="Parameters that carry a secret, besides names with key, token, secret, signature, password or auth: redacted in tags and logs. Press Enter after each."
            value={values.secret_params}
            error={errors.secret_params}
            onChange={(secret_params) => set({ secret_params })}
            acceptValueOnBlur
            clearable
          />
          {serverError ? (
            <ErrorAlert icon={<IconAlertCircle size={18} />} title="Not saved">
              <Text size="sm">{serverError.message}</Text>
              {serverError.lines.length > 0 ? (
                <List size="sm" mt={4}>
                  {serverError.lines.map((l) => (
                    <List.Item key={l}>{l}</List.Item>
                  ))}
                </List>
              ) : null}
            </ErrorAlert>
          ) : null}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={guard.requestClose} disabled={update.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
      {guard.confirm}
    </IntegrationDialog>
  );
}
