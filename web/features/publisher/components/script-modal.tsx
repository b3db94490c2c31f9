import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { QueryCard } from '@/components/query-card.tsx';
import { ScriptDiffView } from '@/components/scripts/script-diff-view.tsx';
import { useAcknowledgeScript, useOfferScript } from '@/features/publisher/api/offer-script.ts';
import { formatDateTime } from '@/lib/format.ts';
import { failedToast, toast } from '@/lib/notify.ts';

/**
 * An offer's call script as the publisher reads it (issue 33): the current version, what
 * changed since the version they last acknowledged, and Acknowledge.
 */
export function ScriptModal({
  offer,
  onClose,
}: {
  offer: { id: string; title: string } | null;
  onClose: () => void;
}) {
  const query = useOfferScript(offer?.id ?? null);
  const ack = useAcknowledgeScript();
  return (
    <Modal
      opened={offer !== null}
      onClose={onClose}
      title={`Script: ${offer?.title ?? ''}`}
      size="lg"
    >
      <QueryCard query={query} errorTitle="Could not load the script">
        {(s) => (
          <Stack gap="sm">
            {s.version === null ? (
              <Text size="sm">This offer has no script.</Text>
            ) : (
              <>
                <Text size="sm">
                  Version {s.version}, published {formatDateTime(s.published_at)}.
                  {s.acknowledged_version !== null
                    ? ` You acknowledged version ${s.acknowledged_version} on ${formatDateTime(s.acknowledged_at)}.`
                    : ''}
                </Text>
                {s.needs_acknowledgement ? (
                  <Alert color="yellow" variant="light" title="Please read and acknowledge">
                    <Text size="sm">
                      Acknowledge by {formatDateTime(s.due_at)}. After that your calls on this offer
                      are{' '}
                      {s.ack_mode === 'hold'
                        ? 'held as pending until an admin reviews them'
                        : 'flagged for review'}
                      .
                    </Text>
                  </Alert>
                ) : (
                  <Text size="sm" c="green">
                    You have acknowledged the current version.
                  </Text>
                )}
                <Text size="sm" fw={600}>
                  {s.acknowledged_version !== null && s.needs_acknowledgement
                    ? `What changed since version ${s.acknowledged_version}`
                    : 'The script'}
                </Text>
                <ScriptDiffView diff={s.diff} label="Script changes" />
                {s.needs_acknowledgement ? (
                  <Group justify="flex-end">
                    <Button
                      leftSection={<IconCheck size={16} />}
                      loading={ack.isPending}
                      onClick={() =>
                        ack.mutate(
                          { offerId: s.offer_id, version: s.version ?? 0 },
                          {
                            onSuccess: () => {
                              toast({
                                title: 'Script acknowledged',
                                description: `You acknowledged version ${s.version} of the script of "${s.offer_title}".`,
                              });
                              onClose();
                            },
                            onError: failedToast('Could not acknowledge the script'),
                          },
                        )
                      }
                    >
                      I have read version {s.version}: Acknowledge
                    </Button>
                  </Group>
                ) : null}
              </>
            )}
          </Stack>
        )}
      </QueryCard>
    </Modal>
  );
}
