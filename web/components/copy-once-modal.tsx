import { Button, Group, Modal, type ModalProps, Stack } from '@mantine/core';
import type { ComponentType, ReactNode } from 'react';
import { CopyOnceAlert } from './copy-once-alert.tsx';

function CenteredModal(props: ModalProps) {
  return <Modal centered size="lg" closeButtonProps={{ 'aria-label': 'Close' }} {...props} />;
}

/**
 * A secret shown once (a key, a signing secret) while `shown` is set: the warning, what
 * `children` shows of it, and a button saying it was copied. A click outside does not close it.
 */
export function CopyOnceModal<T>({
  shown,
  onClose,
  title,
  warning,
  doneLabel,
  frame: Frame = CenteredModal,
  children,
}: {
  shown: T | null;
  onClose: () => void;
  title: (shown: T) => string;
  warning: (shown: T) => ReactNode;
  /** e.g. "I have copied the key". */
  doneLabel: string;
  /** The dialog around it: a centered large modal unless told. */
  frame?: ComponentType<ModalProps>;
  children: (shown: T) => ReactNode;
}) {
  return (
    <Frame
      opened={shown !== null}
      onClose={onClose}
      title={shown ? title(shown) : ''}
      closeOnClickOutside={false}
    >
      {shown ? (
        <Stack gap="md">
          <CopyOnceAlert>{warning(shown)}</CopyOnceAlert>
          {children(shown)}
          <Group justify="flex-end">
            <Button onClick={onClose}>{doneLabel}</Button>
          </Group>
        </Stack>
      ) : null}
    </Frame>
  );
}
