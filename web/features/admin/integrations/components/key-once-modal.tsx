import { type AdminIntegration, KEY_PARAM } from '@contract/integrations.ts';
import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';

/** The endpoint trackers post to, as seen from this browser. */
export const ingestUrl = () => `${window.location.origin}/api/v1/ingest/calls`;

/** A GET pixel with the key and our default parameter names, Ringba's tokens filled in. */
export function ringbaPixel(key: string, integration: AdminIntegration): string {
  const m = integration.field_map;
  const tokens: [string | undefined, string][] = [
    [m.call_id, '[Call:InboundCallId]'],
    [m.event, 'completed'],
    [m.publisher, '[tag:Publisher:Id]'],
    [m.offer, '[tag:Campaign:Id]'],
    [m.caller, '[tag:InboundNumber:Number]'],
    [m.duration, '[Call:CallLengthInSeconds]'],
    [m.revenue, '[Call:ConversionAmount]'],
    [m.payout, '[Call:ConversionPayout]'],
    [m.state, '[tag:InboundNumber:State]'],
    [m.zip, '[tag:Geo:ZipCode]'],
  ];
  const q = tokens.map(([name, token]) => `${name}=${token}`).join('&');
  return `${ingestUrl()}?${KEY_PARAM}=${key}&${q}`;
}

function CopyField({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button
              size="compact-sm"
              variant={copied ? 'filled' : 'light'}
              color={copied ? 'teal' : undefined}
              leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
              onClick={copy}
              aria-label={`Copy ${label.toLowerCase()}`}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
        {value}
      </Code>
    </Stack>
  );
}

/** Shown right after creation: the key, once, with a pixel URL ready for Ringba. */
export function KeyOnceModal({
  created,
  onClose,
}: {
  created: { integration: AdminIntegration; key: string } | null;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={created !== null}
      onClose={onClose}
      title={created ? `Key for ${created.integration.name}` : ''}
      size="lg"
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': 'Close' }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
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
          <Text size="sm">
            Send it in the <Code>x-api-key</Code> header, or as the <Code>{KEY_PARAM}</Code>{' '}
            parameter of a pixel URL.
          </Text>
          <CopyField
            label="Ringba pixel URL"
            value={ringbaPixel(created.key, created.integration)}
          />
          <Group justify="flex-end">
            <Button onClick={onClose}>I have copied the key</Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
