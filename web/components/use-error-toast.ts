import { useEffect } from 'react';
import { failedToast } from '@/lib/notify.ts';

/**
 * Shared: shows the spec's loading-error toast (e.g. 'Error loading publishers') once each time
 * a query fails, with the server's message as description.
 */
export function useErrorToast(error: Error | null | undefined, title: string) {
  useEffect(() => {
    if (!error) return;
    failedToast(title)(error);
  }, [error, title]);
}
