import { Badge, Group } from '@mantine/core';

/** Names as the API spells them (a key's scopes, an endpoint's event types): gray badges in a row. */
export function CodeBadges({ names }: { names: readonly string[] }) {
  return (
    <Group gap={4}>
      {names.map((name) => (
        <Badge key={name} variant="light" color="gray" tt="none">
          {name}
        </Badge>
      ))}
    </Group>
  );
}
