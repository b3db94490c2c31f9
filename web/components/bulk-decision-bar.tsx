import { Button, Group, Paper, Text } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatCount } from '@/lib/format.ts';

/**
 * The bar above a table while rows are picked: what is picked (`status`), any more buttons
 * (`extra`), Clear selection, and the actions on the picked rows (`children`).
 */
export function SelectionBar({
  status,
  extra,
  onClear,
  children,
}: {
  status: string;
  extra?: ReactNode;
  onClear: () => void;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="sm" radius="md" bg="var(--mantine-color-blue-light)">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="sm" wrap="wrap">
          <Text size="sm" fw={600} role="status">
            {status}
          </Text>
          {extra}
          <Button variant="subtle" size="compact-sm" color="gray" onClick={onClear}>
            Clear selection
          </Button>
        </Group>
        <Group gap="xs">{children}</Group>
      </Group>
    </Paper>
  );
}

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
    <SelectionBar
      status={`${formatCount(picked)} ${noun}${picked === 1 ? '' : 's'} selected`}
      onClear={onClear}
    >
      <Button size="xs" color="teal.9" leftSection={<IconCheck size={14} />} onClick={onApprove}>
        Approve selected
      </Button>
      <Button size="xs" color="red" leftSection={<IconX size={14} />} onClick={onReject}>
        Reject selected
      </Button>
    </SelectionBar>
  );
}
