/**
 * Foreground first. The call postbacks are the one request path whose delay costs money: a
 * tracker that waits too long retries or gives up on the call. When their writes queue up (the
 * batches in flight are all busy and calls wait for the next: server/modules/ingest), they mark
 * it here, and background work that can wait without loss slows down for as long as the mark
 * holds: the outbound deliveries send at a paced trickle (server/modules/outbound/engine.ts)
 * and catch up once the burst has passed. One mark per process: it is this process's CPU (and
 * its database's) the two share.
 */

/** How long one mark holds: a burst's batches mark it every few milliseconds. */
export const PRESSURE_HOLD_MS = 500;

let pressedUntil = 0;

/** The foreground's work is waiting now. */
export function notePressure(now: number = performance.now()): void {
  pressedUntil = now + PRESSURE_HOLD_MS;
}

/** Whether the foreground's work waited within the last PRESSURE_HOLD_MS. */
export function underPressure(now: number = performance.now()): boolean {
  return now < pressedUntil;
}

/** Tests: forget the mark. */
export function clearPressure(): void {
  pressedUntil = 0;
}

/**
 * A token bucket: `perSecond` tokens a second, at most `burst` of them saved up. `take(n)`
 * takes n and answers 0, or takes nothing and answers the milliseconds until n are there.
 */
export class Pacer {
  private tokens: number;
  private at: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number = Math.max(1, perSecond / 10),
    now: number = performance.now(),
  ) {
    this.tokens = this.burst;
    this.at = now;
  }

  take(n: number, now: number = performance.now()): number {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) * this.perSecond) / 1000);
    this.at = now;
    // A chain longer than the bucket goes once the bucket is full, or it would never go.
    const need = Math.min(n, this.burst);
    if (this.tokens >= need) {
      this.tokens -= n;
      return 0;
    }
    return Math.ceil(((need - this.tokens) * 1000) / this.perSecond);
  }
}

/**
 * Calls `then` once after `ms`; answers its cancel. The timer is unref'd unless `keepAlive`
 * (work that was promised an answer: the process waits for it).
 */
export function after(ms: number, then: () => void, keepAlive = false): () => void {
  const timer = setTimeout(then, ms);
  if (!keepAlive) timer.unref();
  return () => clearTimeout(timer);
}

/** Resolves after `ms` (an unref'd timer): a background run's pause between turns. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    after(ms, resolve);
  });
}
