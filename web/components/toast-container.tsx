import { Notifications } from '@mantine/notifications';
import { TOAST_DURATION } from '@/lib/notify.ts';

/**
 * Where toasts appear: one at a time (web/lib/notify.ts shows them), bottom right, where they
 * never cover a screen's header and its action buttons (issue 16).
 */
export function ToastContainer() {
  return <Notifications limit={1} autoClose={TOAST_DURATION} position="bottom-right" />;
}
