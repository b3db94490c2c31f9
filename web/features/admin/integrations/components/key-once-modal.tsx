import type { AdminIntegration } from '@contract/integrations.ts';
import { Divider, Title } from '@mantine/core';
import { CopyField } from '@/components/copy-field.tsx';
import { CopyOnceModal } from '@/components/copy-once-modal.tsx';
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
    <CopyOnceModal
      shown={created}
      onClose={onClose}
      title={(c) => `Key for ${c.integration.name}`}
      warning={() =>
        'It will not be shown again. If it is lost, revoke this integration and create a new one.'
      }
      doneLabel="I have copied the key"
      frame={IntegrationDialog}
    >
      {(c) => (
        <>
          <CopyField label="Secret key" value={c.key} />
          <Divider />
          <Title order={2} fz="md">
            How to connect
          </Title>
          <SetupInstructions integration={c.integration} keyValue={c.key} />
        </>
      )}
    </CopyOnceModal>
  );
}
