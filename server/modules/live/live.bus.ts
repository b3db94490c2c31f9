import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/**
 * The wake of the live readers through Redis pub/sub (REDIS_URL), instead of PostgreSQL's
 * LISTEN/NOTIFY: an instance that answered a write publishes on `live_events`, and every
 * instance subscribed there runs its reader turn. The message carries nothing: the log stays
 * the lead timeline, read from the database (so a lost message costs at most one poll).
 */

export const LIVE_CHANNEL = 'live_events';

export type LiveBus = {
  /** Wakes every instance's reader soon; many calls in one tick send one message. */
  publish(): void;
  close(): Promise<void>;
};

export async function startRedisBus(
  url: string,
  onWake: () => void,
  log: Pick<FastifyBaseLogger, 'warn'>,
  channel = LIVE_CHANNEL,
): Promise<LiveBus> {
  const options = {
    // Keep trying, at most every 2 s: Redis coming back needs no restart.
    retryStrategy: (times: number) => Math.min(times * 200, 2000),
    connectTimeout: 1000,
  };
  let warned = 0;
  const warn = (err: unknown) => {
    // One line per 10 s at most while Redis is away (the poll feeds the streams meanwhile).
    if (Date.now() - warned < 10_000) return;
    warned = Date.now();
    log.warn({ err }, 'live: Redis pub/sub unavailable; the streams are fed by polling');
  };
  const sub = new Redis(url, options);
  const pub = new Redis(url, { ...options, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  sub.on('error', warn);
  pub.on('error', warn);
  sub.on('message', (ch: string) => {
    if (ch === channel) onWake();
  });
  // Resubscribed by ioredis after a reconnect. The first subscription is awaited for a second
  // at most: a Redis that is away must not hold the start (the poll feeds the streams).
  await Promise.race([
    sub.subscribe(channel).catch(warn),
    new Promise((resolve) => setTimeout(resolve, 1000).unref()),
  ]);
  let queued = false;
  return {
    publish() {
      if (queued) return;
      queued = true;
      setImmediate(() => {
        queued = false;
        pub.publish(channel, '').catch(warn);
      });
    },
    async close() {
      sub.disconnect();
      pub.disconnect();
    },
  };
}
