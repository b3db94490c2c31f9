import { Notifications } from '@mantine/notifications';
import { TOAST_DURATION } from '@/lib/notify.ts';

/** Where toasts appear: one at a time, top right (web/lib/notify.ts shows them). */
export function ToastContainer() {
  return <Notifications limit={1} autoClose={TOAST_DURATION} position="top-right" />;
}
