import { useWindowEvent } from '@mantine/hooks';
import { useState } from 'react';
import { ConfirmDialog } from './confirm-dialog.tsx';

/** Mantine's open dropdowns (date pickers, selects, menus): Escape closes these first. */
const OPEN_DROPDOWN =
  '.mantine-Popover-dropdown, .mantine-Combobox-dropdown, .mantine-Menu-dropdown';

/**
 * Closing a dialog that holds a form, without losing typed work: Escape closes only the
 * innermost layer (an open date picker or select closes, the dialog stays), and closing a dialog
 * with changes (Escape, the close button, Cancel) asks "Discard changes?" first.
 *
 * Give the dialog `modalProps` and `requestClose` as its onClose/Cancel, and render `confirm`.
 */
export function useDiscardGuard(opts: {
  opened: boolean;
  dirty: boolean;
  /** While a request runs the dialog does not close. */
  busy?: boolean;
  onClose: () => void;
}) {
  const { opened, dirty, busy = false, onClose } = opts;
  const [asking, setAsking] = useState(false);

  const requestClose = () => {
    if (busy) return;
    if (dirty) setAsking(true);
    else onClose();
  };

  // Mantine's Modal closes on any Escape it sees first (a window listener in the capture
  // phase), before the date picker inside it can close itself; so the dialog's own Escape is
  // switched off (modalProps) and handled here, after checking what is open.
  useWindowEvent(
    'keydown',
    (event) => {
      if (event.key !== 'Escape' || event.isComposing || !opened || asking) return;
      if (document.querySelector(OPEN_DROPDOWN)) return;
      const target = event.target as HTMLElement | null;
      if (target?.getAttribute?.('data-mantine-stop-propagation') === 'true') return;
      requestClose();
    },
    { capture: true },
  );

  const confirm = (
    <ConfirmDialog
      opened={asking}
      title="Discard changes?"
      confirmLabel="Discard"
      onCancel={() => setAsking(false)}
      onConfirm={() => {
        setAsking(false);
        onClose();
      }}
    >
      What you typed in this form has not been saved. Close it and lose your changes?
    </ConfirmDialog>
  );

  return {
    requestClose,
    confirm,
    modalProps: { closeOnEscape: false, closeOnClickOutside: !dirty },
  };
}
