import { Button, Group, Modal, Text } from '@mantine/core';
import type { ReactNode } from 'react';

type ConfirmDialogProps = {
  opened: boolean;
  title: string;
  /** What will happen, in one or two sentences. */
  children: ReactNode;
  confirmLabel: string;
  /** Red (the default) for destructive actions. */
  color?: string;
  /** Disables both buttons while the action runs. */
  pending?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

/**
 * A modal that cannot be closed while its action runs (`pending`), with a named close button
 * (without a name the icon-only button is announced as just "button"; axe: serious).
 */
export function ActionModal({
  opened,
  title,
  size,
  pending,
  onCancel,
  children,
}: {
  opened: boolean;
  title: string;
  size?: string;
  pending: boolean;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <Modal
      opened={opened}
      onClose={pending ? () => {} : onCancel}
      title={title}
      centered
      size={size}
      closeButtonProps={{ 'aria-label': 'Close', disabled: pending }}
    >
      {children}
    </Modal>
  );
}

/** What a dialog's Cancel and action buttons show and do. */
export type DialogActionsProps = {
  confirmLabel: string;
  /** The action button's colour; the theme's primary colour unless told. */
  color?: string;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** The action's button takes the focus when the dialog opens. */
  autoFocus?: boolean;
  mt?: string;
};

/** Cancel and the action's button, at the end of a dialog; Cancel waits while it runs. */
export function DialogActions({
  confirmLabel,
  color,
  pending,
  onConfirm,
  onCancel,
  autoFocus,
  mt,
}: DialogActionsProps) {
  return (
    <Group justify="flex-end" mt={mt}>
      <Button variant="default" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button
        color={color}
        onClick={onConfirm}
        loading={pending}
        data-autofocus={autoFocus || undefined}
      >
        {confirmLabel}
      </Button>
    </Group>
  );
}

/** Shared confirmation before a destructive or irreversible action (block, reject, delete…). */
export function ConfirmDialog({
  opened,
  title,
  children,
  color = 'red',
  pending = false,
  ...actions
}: ConfirmDialogProps) {
  return (
    <ActionModal opened={opened} title={title} pending={pending} onCancel={actions.onCancel}>
      <Text size="sm" component="div">
        {children}
      </Text>
      <DialogActions {...actions} color={color} pending={pending} autoFocus mt="lg" />
    </ActionModal>
  );
}
