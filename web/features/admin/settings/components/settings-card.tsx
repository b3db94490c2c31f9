import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * One card of Admin → Settings: its heading, a dimmed line about it when given, its fields, and
 * (with `save`) a Save button at its foot, right-aligned: off until the saved values have loaded
 * (`query`), spinning while `mutation` is under way.
 */
export function SettingsCard({
  title,
  about,
  save,
  children,
}: {
  title: string;
  about?: ReactNode;
  save?: {
    label: string;
    query: { data: unknown };
    mutation: { isPending: boolean };
    onSave: () => Promise<void>;
  };
  children: ReactNode;
}) {
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {title}
        </Title>
        {about ? (
          <Text size="sm" c="dimmed">
            {about}
          </Text>
        ) : null}
        {children}
        {save ? (
          <Group justify="flex-end">
            <Button
              loading={save.mutation.isPending}
              onClick={() => void save.onSave()}
              disabled={!save.query.data}
            >
              {save.label}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}
