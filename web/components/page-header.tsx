import { Group, Stack, type StackProps, Text, Title, type TitleProps } from '@mantine/core';
import type { ReactNode } from 'react';

/** A screen's h1 with an optional dimmed line under it (PageHeader, the public screens' card). */
export function PageTitle({
  title,
  description,
  fz = { base: 24, sm: 28 },
  ...props
}: {
  title: string;
  description?: ReactNode;
  fz?: TitleProps['fz'];
} & Omit<StackProps, 'title'>) {
  return (
    <Stack gap={4} {...props}>
      <Title order={1} fz={fz}>
        {title}
      </Title>
      {description ? (
        <Text c="dimmed" size="sm">
          {description}
        </Text>
      ) : null}
    </Stack>
  );
}

/** Shared screen heading: an h1, an optional one-line description and actions on the right. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-end" gap="md" wrap="wrap">
      <PageTitle title={title} description={description} />
      {actions ? <Group gap="sm">{actions}</Group> : null}
    </Group>
  );
}
