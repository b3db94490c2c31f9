import { Badge } from '@mantine/core';
import type { ReactNode } from 'react';

export type StatusColor = 'yellow' | 'green' | 'red' | 'gray' | 'blue';

// Mantine's light badges put shade-6..9 text on a tint, which falls below WCAG AA (4.5:1)
// for yellow and green; these darker texts pass on the tint over white and over gray.0.
const text: Record<StatusColor, string> = {
  yellow: '#7c4a03',
  green: '#1e6b30',
  red: '#a61e1e',
  gray: '#343a40',
  blue: '#1a4f8b',
};

/** Shared status pill (pending, approved, blocked…) with AA-contrast text. */
export function StatusBadge({ color, children }: { color: StatusColor; children: ReactNode }) {
  return (
    <Badge color={color} variant="light" c={text[color]}>
      {children}
    </Badge>
  );
}
