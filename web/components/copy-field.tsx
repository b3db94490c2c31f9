import { Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/**
 * A value to paste somewhere else (a key, a URL, a JSON body): its label, a Copy button named
 * after the label ("Copy secret key") and the value in full, wrapped, never cut.
 */
export function CopyField({
  label,
  value,
  copyLabel,
}: {
  label: string;
  value: string;
  /** The button's accessible name when the label alone would repeat on the screen. */
  copyLabel?: string;
}) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
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
              aria-label={copyLabel ?? `Copy ${label.toLowerCase()}`}
              style={{ flexShrink: 0 }}
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
