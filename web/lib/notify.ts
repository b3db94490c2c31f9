import { useSyncExternalStore } from 'react';

// The toast layer (@mantine/notifications: store, container, transitions; ~20 KB gzip) is
// fetched with the first toast, so /login does not download it before anyone needs it.
type ToastLayer = typeof import('@mantine/notifications');
let toastLayer: Promise<ToastLayer> | undefined;
let loadedLayer: ToastLayer | undefined;
let toastShown = false;
const toastListeners = new Set<() => void>();

/** Runs `use` with the toast layer: at once when it has loaded, else once it has (in order). */
function withToastLayer(use: (layer: ToastLayer) => void) {
  if (loadedLayer) return use(loadedLayer);
  toastLayer ??= import('@mantine/notifications');
  if (!toastShown) {
    toastShown = true;
    for (const listener of toastListeners) listener();
  }
  void toastLayer.then((layer) => {
    loadedLayer = layer;
    use(layer);
  });
}

/** True once a toast has been asked for: the provider then mounts the toast container. */
export function useToastShown(): boolean {
  return useSyncExternalStore(
    (listener) => {
      toastListeners.add(listener);
      return () => toastListeners.delete(listener);
    },
    () => toastShown,
  );
}

/** The spec's toast: title, description, variant, duration (ms, or Infinity for no auto-close). */
export type Toast = {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
  duration?: number;
};

export const TOAST_DURATION = 5000;

/** Shows a toast (once its layer has loaded); a new one replaces the one on screen. */
export function toast({
  title,
  description,
  variant = 'default',
  duration = TOAST_DURATION,
}: Toast): void {
  withToastLayer(({ notifications }) => {
    // One at a time: a new toast replaces the one on screen instead of queueing behind it.
    notifications.clean();
    notifications.show({
      title,
      message: description ?? '',
      color: variant === 'destructive' ? 'red' : 'blue',
      autoClose: Number.isFinite(duration) ? duration : false,
      withBorder: true,
      closeButtonProps: { 'aria-label': 'Close notification' },
      // Mantine draws a titled toast's text in gray.6 (3.3:1 on white); gray.7 keeps 4.5:1.
      styles: { description: { color: 'var(--mantine-color-gray-7)' } },
      'data-variant': variant,
    } as Parameters<typeof notifications.show>[0]);
  });
}

/**
 * The one error path of a write (a mutation's `onError`): the destructive toast with the action's
 * title and the server's sentence, e.g. `onError: failedToast('Upload failed')` (anything thrown
 * that is not an Error with a message reads "Something went wrong").
 */
export function failedToast(title: string): (err: unknown) => void {
  return (err) =>
    toast({
      title,
      description: (err instanceof Error && err.message) || 'Something went wrong',
      variant: 'destructive',
    });
}
