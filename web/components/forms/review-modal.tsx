import { Alert, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';

/**
 * The large dialog of a review (an application, a compliance submission): full screen on a
 * phone, a bold title and a named close button.
 */
export function ReviewModal({
  opened,
  onClose,
  title,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
}) {
  const isPhone = useMediaQuery('(max-width: 48em)');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size="xl"
      fullScreen={isPhone}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {children}
    </Modal>
  );
}

/** One fact of a review: a small upper-case label over its value (`gap` apart). */
export function ReviewField({
  label,
  gap = 2,
  children,
}: {
  label: string;
  gap?: number;
  children: ReactNode;
}) {
  return (
    <Stack gap={gap}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** Why something was rejected, in red, as the publisher reads it. */
export function RejectedBecause({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Alert color="red" variant="light" title={title}>
      <Text size="sm" c="dark">
        {children}
      </Text>
    </Alert>
  );
}
