import { notifications } from '@mantine/notifications';

/** The spec's toast: title, description, variant, duration (ms, or Infinity for no auto-close). */
export type Toast = {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
  duration?: number;
};

export const TOAST_DURATION = 5000;

/** Shows a toast; the provider's limit of 1 makes a new one replace the old. */
export function toast({
  title,
  description,
  variant = 'default',
  duration = TOAST_DURATION,
}: Toast) {
  // One at a time: a new toast replaces the one on screen instead of queueing behind it.
  notifications.clean();
  return notifications.show({
    title,
    message: description ?? '',
    color: variant === 'destructive' ? 'red' : 'blue',
    autoClose: Number.isFinite(duration) ? duration : false,
    withBorder: true,
    closeButtonProps: { 'aria-label': 'Close notification' },
    'data-variant': variant,
  } as Parameters<typeof notifications.show>[0]);
}
