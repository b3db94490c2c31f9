import { Button, Group, Paper, Text } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { formatCount } from '@/lib/format.ts';

/** Shown while rows are picked: how many, Clear selection, and Approve / Reject for them all. */
export function BulkDecisionBar({
  picked,
  noun,
  onClear,
  onApprove,
  onReject,
}: {
  picked: number;
  /** e.g. "application": the bar says "2 applications selected". */
  noun: string;
  onClear: () => void;
  onApprove: () => void;
  onReject: () => void;
}) {
  if (picked === 0) return null;
  return (
    <Paper withBorder p="sm" radius="md" bg="var(--mantine-color-blue-light)">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="sm" wrap="wrap">
          <Text size="sm" fw={600} role="status">
            {`${formatCount(picked)} ${noun}${picked === 1 ? '' : 's'} selected`}
          </Text>
          <Button variant="subtle" size="compact-sm" color="gray" onClick={onClear}>
            Clear selection
          </Button>
        </Group>
        <Group gap="xs">
          <Button
            size="xs"
            color="teal.9"
            leftSection={<IconCheck size={14} />}
            onClick={onApprove}
          >
            Approve selected
          </Button>
          <Button size="xs" color="red" leftSection={<IconX size={14} />} onClick={onReject}>
            Reject selected
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
