// When a failed delivery is tried again, and when an endpoint that keeps failing is paused
// (issue 30: exponential backoff with jitter for 24 hours, Retry-After honoured).

const HOUR = 3_600_000;

/** Retries stop this long after the first try (or the replay). */
export const RETRY_WINDOW_MS = 24 * HOUR;
/** An endpoint that failed every delivery this long is paused. */
export const PAUSE_AFTER_MS = 24 * HOUR;

/**
 * The wait before the retry after `attempt` failed: 5 s doubling up to an hour, with jitter
 * (between half and all of it), so a receiver coming back is not met by every retry at once.
 */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(5000 * 2 ** Math.max(0, attempt - 1), HOUR);
  return Math.round(base / 2 + (random() * base) / 2);
}

/** A `Retry-After` (seconds or an HTTP date) as milliseconds from `now`; null without one. */
export function retryAfterMs(header: string | null, now: Date): number | null {
  if (!header) return null;
  const t = header.trim();
  if (/^\d+$/.test(t)) return Number(t) * 1000;
  const at = Date.parse(t);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
