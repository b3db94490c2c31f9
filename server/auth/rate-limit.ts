import { Redis } from 'ioredis';

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

/**
 * Buckets in Redis (REDIS_URL), shared by all instances. When Redis cannot be reached the
 * request is let through and `onError` is told: a limiter outage must not lock everyone out.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis & TakeCommand;

  constructor(
    url: string,
    private readonly opts: { prefix?: string; onError?: (err: unknown) => void } = {},
  ) {
    const redis = new Redis(url, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      connectTimeout: 2000,
      lazyConnect: true,
    });
    redis.on('error', (err) => this.opts.onError?.(err));
    redis.defineCommand('authTakeToken', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.redis = redis as Redis & TakeCommand;
  }

  async take(key: string, rule: BucketRule): Promise<TakeResult> {
    try {
      const [allowed, retryMs] = await this.redis.authTakeToken(
        `${this.opts.prefix ?? 'portal:ratelimit:'}${key}`,
        rule.capacity,
        rule.refillPerSecond,
      );
      return { allowed: allowed === 1, retryAfterSeconds: Math.ceil(retryMs / 1000) };
    } catch (err) {
      this.opts.onError?.(err);
      return { allowed: true, retryAfterSeconds: 0 };
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
