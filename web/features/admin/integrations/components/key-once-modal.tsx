import type { AdminIntegration } from '@contract/integrations.ts';
import { Alert, Button, Divider, Group, Stack, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { CopyField } from './copy-field.tsx';
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
          <Alert
            color="yellow"
            variant="light"
            icon={<IconAlertTriangle size={18} />}
            title="Copy this key now"
            styles={{ title: { color: 'var(--mantine-color-black)' } }}
          >
            It will not be shown again. If it is lost, revoke this integration and create a new one.
          </Alert>
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
