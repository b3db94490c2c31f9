import type { ScriptDiffLine } from '@contract/scripts.ts';
import { Box, Text } from '@mantine/core';

const look: Record<ScriptDiffLine['kind'], { sign: string; bg?: string; label: string }> = {
  same: { sign: ' ', label: 'unchanged' },
  added: { sign: '+', bg: 'var(--mantine-color-green-light)', label: 'added' },
  removed: { sign: '−', bg: 'var(--mantine-color-red-light)', label: 'removed' },
};

/**
 * A script's line diff (issue 33): added lines green with "+", removed lines red with "−",
 * the rest as they are; each line says what it is to screen readers. Used by the admin's
 * versions and the publisher's "what changed".
 */
export function ScriptDiffView({ diff, label }: { diff: ScriptDiffLine[]; label: string }) {
  if (diff.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        The script is empty.
      </Text>
    );
  }
  return (
    <Box
      component="ul"
      aria-label={label}
      data-testid="script-diff"
      p={0}
      m={0}
      style={{ listStyle: 'none', border: '1px solid var(--mantine-color-default-border)' }}
    >
      {diff.map((line, i) => {
        const l = look[line.kind];
        return (
          <Box
            component="li"
            // Lines repeat: their place is their identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: a diff line has no other key
            key={i}
            data-kind={line.kind}
            px="xs"
            style={{ background: l.bg, fontFamily: 'var(--mantine-font-family-monospace)' }}
          >
            <Text
              span
              size="sm"
              style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
              aria-label={`${l.label}: ${line.text}`}
            >
              {l.sign} {line.text}
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}
