import { Button, Group, Modal, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { FormEvent, ReactNode } from 'react';

type FormModalProps = {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** A dirty form closes only by Cancel or the close button, never by a stray click outside. */
  dirty: boolean;
  /** Disables Cancel and spins the submit button while the request runs. */
  pending: boolean;
  submitLabel: string;
  size?: 'md' | 'lg';
  /** Greys out the submit button (e.g. nothing to choose from yet). */
  submitDisabled?: boolean;
  onSubmit: (event?: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
};

/**
 * Shared create/edit dialog of the admin screens: full screen on a phone, a named close button,
 * the fields, then Cancel and the submit button at the bottom right.
 */
export function FormModal({
  opened,
  onClose,
  title,
  dirty,
  pending,
  submitLabel,
  submitDisabled,
  size = 'lg',
  onSubmit,
  children,
}: FormModalProps) {
  const isPhone = useMediaQuery('(max-width: 48em)');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size={size}
      fullScreen={isPhone}
      closeOnClickOutside={!dirty}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {children}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" loading={pending} disabled={submitDisabled}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
