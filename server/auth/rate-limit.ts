import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { Counter, Gauge } from 'prom-client';

/** A token bucket: `capacity` requests at once, refilled at `refillPerSecond`. */
export type BucketRule = { capacity: number; refillPerSecond: number };

/**
 * A bucket for `perFiveMinutes` requests per 5 minutes, at most 30 at once (GoTrue's burst);
 * null when the limit is off (0).
 */
export function fiveMinuteRule(perFiveMinutes: number): BucketRule | null {
  if (perFiveMinutes <= 0) return null;
  return { capacity: Math.min(30, perFiveMinutes), refillPerSecond: perFiveMinutes / 300 };
}

/** The per-IP limits of /auth/v1 with GoTrue's defaults (contract §7). */
export const AUTH_RATE_LIMITS = {
  /** /token, password and refresh grants share it: 150 per 5 min, burst 30. */
  token: { capacity: 30, refillPerSecond: 150 / 300 },
  /** /signup and /recover: 30 per 5 min. */
  otp: { capacity: 30, refillPerSecond: 30 / 300 },
  /** /verify: 30 per 5 min. */
  verify: { capacity: 30, refillPerSecond: 30 / 300 },
} satisfies Record<string, BucketRule>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's one rate-limit store: /auth/v1's per-IP buckets and each API key's bucket. */
    rateLimits: RateLimitStore;
  }
}

export type TakeResult = { allowed: boolean; retryAfterSeconds: number };

/** Where the buckets live: this process's memory, or Redis shared by every instance. */
export interface RateLimitStore {
  take(key: string, rule: BucketRule): Promise<TakeResult>;
  close(): Promise<void>;
}

/** Buckets in this process; fine for one instance. Full buckets are forgotten now and then. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets = new Map<string, { tokens: number; at: number; rule: BucketRule }>();
  private takes = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async take(key: string, rule: BucketRule): Promise<TakeResult> {
    const now = this.now();
    if (++this.takes % 1000 === 0) this.sweep(now);
    const b = this.buckets.get(key) ?? { tokens: rule.capacity, at: now, rule };
    const tokens = Math.min(
      rule.capacity,
      b.tokens + (Math.max(0, now - b.at) / 1000) * rule.refillPerSecond,
    );
    if (tokens >= 1) {
      this.buckets.set(key, { tokens: tokens - 1, at: now, rule });
      return { allowed: true, retryAfterSeconds: 0 };
    }
    this.buckets.set(key, { tokens, at: now, rule });
    return { allowed: false, retryAfterSeconds: Math.ceil((1 - tokens) / rule.refillPerSecond) };
  }

  private sweep(now: number) {
    for (const [key, b] of this.buckets) {
      const full = b.tokens + ((now - b.at) / 1000) * b.rule.refillPerSecond >= b.rule.capacity;
      if (full) this.buckets.delete(key);
    }
  }

  async close(): Promise<void> {
    this.buckets.clear();
  }
}

// Refill and take in one atomic step, timed by the Redis clock so instances agree.
const TAKE_SCRIPT = `
local cap = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local data = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(data[1])
local at = tonumber(data[2])
if tokens == nil or at == nil then
  tokens = cap
  at = now
end
tokens = math.min(cap, tokens + math.max(0, now - at) * rate / 1000)
local allowed = 0
local retry = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  retry = math.ceil((1 - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(cap * 1000 / rate) + 1000)
return {allowed, retry}
`;

type TakeCommand = {
  authTakeToken(key: string, cap: number, rate: number): Promise<[number, number]>;
};

/** What the Redis store reports: an outage starts or ends (each logged once), or a fallback. */
export type RedisLimitEvents = {
  onDown?: (err: unknown) => void;
  onUp?: () => void;
  /** Every take answered by this instance's memory because Redis was away. */
  onFallback?: () => void;
};

/**
 * Buckets in Redis (REDIS_URL), shared by all instances. It fails fast: while Redis is not
 * connected (refused, unreachable, restarting) nothing is queued and every take is answered at
 * once from this instance's own memory buckets; a command that does not answer within
 * COMMAND_TIMEOUT_MS does the same. ioredis keeps reconnecting in the background, so Redis
 * coming back is picked up without a restart.
 */
export class RedisRateLimitStore implements RateLimitStore {
  static readonly CONNECT_TIMEOUT_MS = 1000;
  // 200 ms: a CPU-starved event loop can hold a fast reply past 100 ms (spurious outages).
  static readonly COMMAND_TIMEOUT_MS = 200;
  private readonly redis: Redis & TakeCommand;
  private readonly fallback = new MemoryRateLimitStore();
  private down = false;
  private everReady = false;
  private readonly firstReady: Promise<void>;

  constructor(
    url: string,
    private readonly opts: { prefix?: string } & RedisLimitEvents = {},
  ) {
    const redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: RedisRateLimitStore.CONNECT_TIMEOUT_MS,
      commandTimeout: RedisRateLimitStore.COMMAND_TIMEOUT_MS,
      // Keep trying, at most every 2 s: recovery needs no restart.
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    redis.on('error', (err) => this.markDown(err));
    // The first connection's outcome: ready, or an error (refused, timed out).
    this.firstReady = new Promise((resolve) => {
      redis.once('ready', () => resolve());
      redis.once('error', () => resolve());
    });
    redis.on('ready', () => {
      this.everReady = true;
      if (this.down) {
        this.down = false;
        this.opts.onUp?.();
      }
    });
    redis.defineCommand('authTakeToken', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.redis = redis as Redis & TakeCommand;
  }

  private markDown(err: unknown) {
    if (this.down) return;
    this.down = true;
    this.opts.onDown?.(err);
  }

  /** True while takes are answered from Redis. */
  get available(): boolean {
    return this.redis.status === 'ready' && !this.down;
  }

  async take(key: string, rule: BucketRule): Promise<TakeResult> {
    // Just started: the first connection may take up to its connect timeout (once per process;
    // a refused one fails at once). Afterwards nothing waits for a connection.
    if (!this.everReady && !this.down) {
      await Promise.race([
        this.firstReady,
        new Promise((r) => setTimeout(r, RedisRateLimitStore.CONNECT_TIMEOUT_MS)),
      ]);
    }
    if (this.redis.status === 'ready') {
      try {
        const [allowed, retryMs] = await this.redis.authTakeToken(
          `${this.opts.prefix ?? 'portal:ratelimit:'}${key}`,
          rule.capacity,
          rule.refillPerSecond,
        );
        if (this.down) {
          this.down = false;
          this.opts.onUp?.();
        }
        return { allowed: allowed === 1, retryAfterSeconds: Math.ceil(retryMs / 1000) };
      } catch (err) {
        this.markDown(err);
      }
    } else if (!this.down && this.redis.status !== 'connecting' && this.redis.status !== 'wait') {
      this.markDown(new Error(`Redis is ${this.redis.status}`));
    }
    this.opts.onFallback?.();
    return this.fallback.take(key, rule);
  }

  async close(): Promise<void> {
    this.redis.disconnect();
    await this.fallback.close();
  }
}

/**
 * The Redis store's events for this app: an outage and the recovery are logged once each, and
 * /metrics shows `rate_limit_redis_up` (0 while away) and `rate_limit_fallback_total` (takes
 * answered from this instance's memory).
 */
export function redisLimitEvents(app: FastifyInstance): RedisLimitEvents {
  const log = app.log.child({ component: 'rate-limit' });
  let up = 1;
  const registers = app.metricsRegistry ? [app.metricsRegistry] : [];
  new Gauge({
    name: 'rate_limit_redis_up',
    help: '1 while the auth rate limits are shared through Redis, 0 while they fall back to memory',
    registers,
    collect() {
      this.set(up);
    },
  });
  const fallbacks = new Counter({
    name: 'rate_limit_fallback_total',
    help: "Rate-limit checks answered from this instance's memory because Redis was away",
    registers,
  });
  return {
    onDown: (err) => {
      up = 0;
      log.warn(
        { err: err instanceof Error ? err.message : String(err) },
        "Redis is unavailable: auth rate limits use this instance's memory until it is back",
      );
    },
    onUp: () => {
      up = 1;
      log.info('Redis is back: auth rate limits are shared again');
    },
    onFallback: () => fallbacks.inc(),
  };
}

/**
 * Decorates the app with its one rate-limit store (Redis when REDIS_URL is set, else memory),
 * closed with the app. /auth/v1 and the API-key guard take from it.
 */
export function decorateRateLimits(app: FastifyInstance, store?: RateLimitStore): void {
  const own =
    store ??
    (app.config.redisUrl
      ? new RedisRateLimitStore(app.config.redisUrl, redisLimitEvents(app))
      : new MemoryRateLimitStore());
  app.decorate('rateLimits', own);
  if (!store) app.addHook('onClose', () => own.close());
}
