import type { AdminIntegration } from '@contract/integrations.ts';
import { Modal, type ModalProps } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

/** What a dialog about one integration is given: the integration, and how to close. */
export type IntegrationDialogProps = { integration: AdminIntegration; onClose: () => void };

/**
 * The frame of the integration screen's dialogs: extra large and full screen on a phone unless
 * told, a bold title and a close button named "Close".
 */
export function IntegrationDialog({ size = 'xl', fullScreen, ...props }: ModalProps) {
  const isPhone = useMediaQuery('(max-width: 48em)');
  return (
    <Modal
      size={size}
      fullScreen={fullScreen ?? isPhone}
      closeButtonProps={{ 'aria-label': 'Close' }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      {...props}
    />
  );
}
