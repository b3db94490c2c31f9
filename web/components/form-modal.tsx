import { Button, Group, type MantineSpacing, Modal, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { FormEvent, ReactNode } from 'react';
import { useDiscardGuard } from './use-discard-guard.tsx';

type FormModalProps = {
  opened: boolean;
  onClose: () => void;
  title: string;
  /**
   * A dirty form never closes by a stray click outside, and Escape, Cancel or the close button
   * ask "Discard changes?" first (useDiscardGuard).
   */
  dirty: boolean;
  /** Disables Cancel and spins the submit button while the request runs. */
  pending: boolean;
  submitLabel: string;
  /** Shown on the submit button while the request runs, instead of its spinner (it is then greyed out). */
  pendingLabel?: string;
  /** Space between Cancel and the submit button (Mantine's Group default when unset). */
  actionsGap?: MantineSpacing;
  size?: 'md' | 'lg';
  /** Greys out the submit button (e.g. nothing to choose from yet). */
  submitDisabled?: boolean;
  /** "red" when the submit button does something destructive (reject, delete…). */
  submitColor?: string;
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
  pendingLabel,
  actionsGap,
  submitDisabled,
  submitColor,
  size = 'lg',
  onSubmit,
  children,
}: FormModalProps) {
  const isPhone = useMediaQuery('(max-width: 48em)');
  const guard = useDiscardGuard({ opened, dirty, busy: pending, onClose });
  return (
    <Modal
      opened={opened}
      onClose={guard.requestClose}
      title={title}
      size={size}
      fullScreen={isPhone}
      {...guard.modalProps}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {children}
          <Group justify="flex-end" gap={actionsGap} mt="sm">
            <Button variant="default" onClick={guard.requestClose} disabled={pending}>
              Cancel
            </Button>
            {pendingLabel === undefined ? (
              <Button type="submit" color={submitColor} loading={pending} disabled={submitDisabled}>
                {submitLabel}
              </Button>
            ) : (
              <Button type="submit" color={submitColor} disabled={pending || submitDisabled}>
                {pending ? pendingLabel : submitLabel}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
      {guard.confirm}
    </Modal>
  );
}
