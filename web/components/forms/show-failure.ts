import { failedToast } from '@/lib/notify.ts';

/**
 * `failedToast` for a `catch`, whose error is `unknown`: the action's title and the thrown
 * error's message ("Something went wrong" when it has none).
 */
export function showFailure(title: string, err: unknown): void {
  failedToast(title)(err instanceof Error ? err : new Error());
}
