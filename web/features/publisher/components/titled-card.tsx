import { Card, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A section of a publisher screen: a card named by its heading (`id`), its contents below. */
export function TitledCard({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={id}>
      <Stack gap="md">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}
