import { Stack, type StackProps, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { DimmedNote } from './dimmed-note.tsx';
import { EmailText } from './email-text.tsx';

/**
 * Shared table cell for a person: the name (or a link to them) over the e-mail. A long address
 * is cut with an ellipsis (whole on hover/focus) so a table keeps its other columns in view.
 */
export function PersonCell({
  name,
  email,
  extra,
  maw = { base: 200, md: 220 },
}: {
  /** The name, or a link rendering it; '—' when there is none. */
  name: ReactNode;
  email: string;
  /** An extra dimmed line under the name (e.g. the company). */
  extra?: ReactNode;
  /** The cell's widest (a table with many figures gives the person less room). */
  maw?: StackProps['maw'];
}) {
  return (
    <Stack gap={0} miw={160} maw={maw}>
      <Text size="sm" fw={600} component="div">
        {name || '—'}
      </Text>
      <DimmedNote>{extra}</DimmedNote>
      <EmailText size="xs" c="dimmed" email={email} />
    </Stack>
  );
}
