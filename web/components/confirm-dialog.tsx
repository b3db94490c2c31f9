import { Button, Group, Modal, Text } from '@mantine/core';
import type { ReactNode } from 'react';

type ConfirmDialogProps = {
  opened: boolean;
  title: string;
  /** What will happen, in one or two sentences. */
  children: ReactNode;
  confirmLabel: string;
  /** Red for destructive actions. */
  color?: string;
  /** Disables both buttons while the action runs. */
  pending?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

/** Shared confirmation before a destructive or irreversible action (block, reject, delete…). */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel,
  color = 'red',
  pending = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={pending ? () => {} : onCancel}
      title={title}
      centered
      // Without a name the icon-only close button is announced as just "button" (axe: serious).
      closeButtonProps={{ 'aria-label': 'Close', disabled: pending }}
    >
      <Text size="sm" component="div">
        {children}
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button color={color} onClick={onConfirm} loading={pending} data-autofocus>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
