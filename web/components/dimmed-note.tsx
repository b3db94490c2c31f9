import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A small dimmed line under a value (a cell's second line, a control's note), or nothing when
 * there is nothing to say: `<DimmedNote>{row.note}</DimmedNote>`.
 */
export function DimmedNote({ children }: { children?: ReactNode }) {
  return children ? (
    <Text size="xs" c="dimmed">
      {children}
    </Text>
  ) : null;
}
