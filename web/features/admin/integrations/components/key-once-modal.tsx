import type { AdminIntegration } from '@contract/integrations.ts';
import { Button, Divider, Group, Stack, Title } from '@mantine/core';
import { CopyField } from '@/components/copy-field.tsx';
import { CopyOnceAlert } from '@/components/copy-once-alert.tsx';
import { IntegrationDialog } from './integration-dialog.tsx';
import { SetupInstructions } from './setup-instructions.tsx';

/**
 * Shown right after creation: the key, once, and the setup instructions with the key filled
 * in, so the URLs can be pasted into the tracker as they are.
 */
export function KeyOnceModal({
  created,
  onClose,
}: {
  created: { integration: AdminIntegration; key: string } | null;
  onClose: () => void;
}) {
  return (
    <IntegrationDialog
      opened={created !== null}
      onClose={onClose}
      title={created ? `Key for ${created.integration.name}` : ''}
      closeOnClickOutside={false}
    >
      {created ? (
        <Stack gap="md">
          <CopyOnceAlert>
            It will not be shown again. If it is lost, revoke this integration and create a new one.
          </CopyOnceAlert>
          <CopyField label="Secret key" value={created.key} />
          <Divider />
          <Title order={2} fz="md">
            How to connect
          </Title>
          <SetupInstructions integration={created.integration} keyValue={created.key} />
          <Group justify="flex-end">
            <Button onClick={onClose}>I have copied the key</Button>
          </Group>
        </Stack>
      ) : null}
    </IntegrationDialog>
  );
}
