import { SegmentedControl, type SegmentedControlProps, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { DimmedNote } from '../dimmed-note.tsx';

/**
 * A segmented choice with a visible label above it (Mantine's control has none), named by that
 * label for screen readers, and an optional dimmed note under it.
 */
export function LabeledSegmentedControl({
  id,
  label,
  note,
  ...props
}: SegmentedControlProps & { id: string; label: ReactNode; note?: ReactNode }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id={id}>
        {label}
      </Text>
      <SegmentedControl aria-labelledby={id} {...props} />
      <DimmedNote>{note}</DimmedNote>
    </Stack>
  );
}
