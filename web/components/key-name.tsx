import { Text } from '@mantine/core';

/**
 * A key's name in bold over the start of its secret (`prefix…`, monospace): an API key's row, an
 * integration's. The caller's cell holds the two lines.
 */
export function KeyName({ name, prefix }: { name: string; prefix: string }) {
  return (
    <>
      <Text size="sm" fw={600}>
        {name}
      </Text>
      <Text size="xs" c="dimmed" ff="monospace">
        {prefix}…
      </Text>
    </>
  );
}
