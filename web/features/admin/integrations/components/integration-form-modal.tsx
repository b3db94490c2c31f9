import {
  type AdminIntegration,
  type CallField,
  CreateIntegration,
  callFields,
  defaultFieldMap,
} from '@contract/integrations.ts';
import { Accordion, SimpleGrid, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { FormModal } from '@/components/form-modal.tsx';
import { serverFieldErrors, validateWithSchema } from '@/components/zod-form.ts';
import { useCreateIntegration } from '@/features/admin/integrations/api/create-integration.ts';
import { useUpdateIntegration } from '@/features/admin/integrations/api/update-integration.ts';
import { ApiError } from '@/lib/api-client.ts';
import { toast } from '@/lib/notify.ts';

type FormValues = {
  name: string;
  /** One address or CIDR range per line. */
  allowed_ips: string;
} & Record<CallField, string>;

const fields = ['name', 'allowed_ips', 'field_map'];

const valuesOf = (i: AdminIntegration | null): FormValues => ({
  name: i?.name ?? '',
  allowed_ips: (i?.allowed_ips ?? []).join('\n'),
  ...(Object.fromEntries(
    callFields.map((f) => [f, i?.field_map[f] && i.field_map[f] !== f ? i.field_map[f] : '']),
  ) as Record<CallField, string>),
});

function toBody(v: FormValues) {
  const fieldMap: Partial<Record<CallField, string>> = {};
  for (const f of callFields) if (v[f].trim()) fieldMap[f] = v[f].trim();
  return {
    name: v.name,
    allowed_ips: v.allowed_ips
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean),
    field_map: fieldMap,
  };
}

const validate = validateWithSchema(CreateIntegration, toBody);

/**
 * Creates an integration (then `onCreated` shows its key once) or edits one: name, the source
 * addresses allowed to post, and the tracker's parameter names where they differ from ours.
 */
export function IntegrationFormModal({
  opened,
  integration,
  onClose,
  onCreated,
}: {
  opened: boolean;
  /** null: a new integration. */
  integration: AdminIntegration | null;
  onClose: () => void;
  onCreated: (created: { integration: AdminIntegration; key: string }) => void;
}) {
  const create = useCreateIntegration();
  const update = useUpdateIntegration();
  const pending = create.isPending || update.isPending;
  const form = useForm<FormValues>({ mode: 'controlled', initialValues: valuesOf(null), validate });

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new opening starts from the record
  useEffect(() => {
    if (opened) {
      const v = valuesOf(integration);
      form.setValues(v);
      form.resetDirty(v);
      form.clearErrors();
    }
  }, [opened, integration]);

  const handleSubmit = form.onSubmit(async (values) => {
    const body = toBody(values);
    try {
      if (integration) {
        await update.mutateAsync({ id: integration.id, body });
        toast({ title: 'Integration Updated', description: `${body.name} has been saved.` });
        onClose();
      } else {
        onCreated(await create.mutateAsync(body));
      }
    } catch (err) {
      if (err instanceof ApiError) {
        const errors = serverFieldErrors(err.details, fields);
        if (err.code === 'conflict') errors.name = err.message;
        form.setErrors(errors);
      }
      toast({
        title: integration ? 'Failed to update integration' : 'Failed to create integration',
        description: err instanceof Error && err.message ? err.message : 'Something went wrong',
        variant: 'destructive',
      });
    }
  });

  return (
    <FormModal
      opened={opened}
      onClose={() => !pending && onClose()}
      title={integration ? 'Edit Integration' : 'New Integration'}
      dirty={form.isDirty()}
      pending={pending}
      submitLabel={integration ? 'Save' : 'Create Integration'}
      onSubmit={handleSubmit}
    >
      <TextInput
        label="Name"
        placeholder="e.g. Ringba production"
        withAsterisk
        data-autofocus
        {...form.getInputProps('name')}
      />
      <Textarea
        label="Allowed source addresses"
        description="One IP address or CIDR range per line (e.g. 203.0.113.0/24). Leave empty to accept calls from anywhere."
        autosize
        minRows={2}
        maxRows={6}
        {...form.getInputProps('allowed_ips')}
      />
      <Accordion variant="contained">
        <Accordion.Item value="names">
          <Accordion.Control>Parameter names</Accordion.Control>
          <Accordion.Panel>
            <Text size="sm" c="dimmed" mb="sm">
              Only if your tracker cannot use our names: type the name it sends for a field.
            </Text>
            {form.errors.field_map ? (
              <Text size="sm" c="red" mb="sm" role="alert">
                {form.errors.field_map}
              </Text>
            ) : null}
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {callFields.map((f) => (
                <TextInput
                  key={f}
                  label={f}
                  placeholder={defaultFieldMap[f]}
                  size="sm"
                  {...form.getInputProps(f)}
                />
              ))}
            </SimpleGrid>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
    </FormModal>
  );
}
