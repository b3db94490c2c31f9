import { randomBytes, randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/build-test-app.ts';
import { AUTH_RATE_LIMITS, MemoryRateLimitStore, RedisRateLimitStore } from './rate-limit.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// Every run gets its own keys, so runs (and engineers) never share buckets.
const prefix = `test:ratelimit:${Date.now().toString(36)}:${randomBytes(4).toString('hex')}:`;

describe('MemoryRateLimitStore', () => {
  it('allows the burst, refuses the next, and refills at the configured rate', async () => {
    let now = 1_000_000;
    const store = new MemoryRateLimitStore(() => now);
    const rule = AUTH_RATE_LIMITS.token;
    for (let i = 0; i < 30; i++) expect((await store.take('ip-a', rule)).allowed).toBe(true);
    const refused = await store.take('ip-a', rule);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 2 });
    expect((await store.take('ip-b', rule)).allowed).toBe(true);
    now += 2000; // 150 per 300 s = one token every 2 s
    expect((await store.take('ip-a', rule)).allowed).toBe(true);
    expect((await store.take('ip-a', rule)).allowed).toBe(false);
    now += 300_000;
    for (let i = 0; i < 30; i++) expect((await store.take('ip-a', rule)).allowed).toBe(true);
    expect((await store.take('ip-a', rule)).allowed).toBe(false);
  });

  it('holds 30 sign-ups per 5 minutes', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore(() => now);
    for (let i = 0; i < 30; i++)
      expect((await store.take('x', AUTH_RATE_LIMITS.otp)).allowed).toBe(true);
    expect(await store.take('x', AUTH_RATE_LIMITS.otp)).toEqual({
      allowed: false,
      retryAfterSeconds: 10,
    });
    now += 10_000;
    expect((await store.take('x', AUTH_RATE_LIMITS.otp)).allowed).toBe(true);
  });
});

describe('RedisRateLimitStore (real Redis)', () => {
  const stores: RedisRateLimitStore[] = [];
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    const r = new Redis(REDIS_URL);
    const keys = await r.keys(`${prefix}*`);
    if (keys.length) await r.del(...keys);
    r.disconnect();
  });
  const store = () => {
    const s = new RedisRateLimitStore(REDIS_URL, { prefix });
    stores.push(s);
    return s;
  };

  it('shares one bucket between two instances, atomically', async () => {
    const a = store();
    const b = store();
    const rule = { capacity: 10, refillPerSecond: 0.01 };
    // 12 concurrent takes from two connections: exactly 10 get through.
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).take('shared', rule)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    const refused = results.find((r) => !r.allowed)!;
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(99);
    expect((await a.take('other', rule)).allowed).toBe(true);
  });

  it('refills with time and expires idle buckets', async () => {
    const s = store();
    const rule = { capacity: 1, refillPerSecond: 5 };
    expect((await s.take('refill', rule)).allowed).toBe(true);
    expect((await s.take('refill', rule)).allowed).toBe(false);
    await new Promise((r) => setTimeout(r, 250));
    expect((await s.take('refill', rule)).allowed).toBe(true);
    const r = new Redis(REDIS_URL);
    const ttl = await r.pttl(`${prefix}refill`);
    r.disconnect();
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1200);
  });

  it("answers at once from this instance's memory when Redis cannot be reached, reporting the outage once", async () => {
    const downs: unknown[] = [];
    let fallbacks = 0;
    const s = new RedisRateLimitStore('redis://127.0.0.1:1', {
      prefix,
      onDown: (e) => downs.push(e),
      onFallback: () => fallbacks++,
    });
    stores.push(s);
    const rule = { capacity: 2, refillPerSecond: 0.001 };
    const started = performance.now();
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await s.take('down', rule)).allowed);
    // The per-instance limit still holds: two allowed, the third refused.
    expect(answers).toEqual([true, true, false]);
    expect(performance.now() - started).toBeLessThan(400);
    expect(fallbacks).toBe(3);
    // A reconnect loop keeps failing in the background; the outage is reported once.
    await new Promise((r) => setTimeout(r, 700));
    expect(downs).toHaveLength(1);
  });
});

describe('two app instances with REDIS_URL', () => {
  let a: TestApp;
  let b: TestApp;
  // This test is about sharing the count. On PGlite the embedded database runs on the event
  // loop, so a start-up job's query can hold a Redis reply past the 200 ms command timeout; that
  // take is then answered from the instance's memory (the fallback the tests above check) and
  // the shared count comes out short. A longer timeout here keeps every take on Redis.
  const timeouts = RedisRateLimitStore as unknown as { COMMAND_TIMEOUT_MS: number };
  const commandTimeout = timeouts.COMMAND_TIMEOUT_MS;
  beforeAll(async () => {
    timeouts.COMMAND_TIMEOUT_MS = 5000;
    // One after the other: two at once can starve a small machine past Fastify's plugin timeout.
    a = await buildTestApp({ env: { REDIS_URL } });
    b = await buildTestApp({ env: { REDIS_URL } });
  });
  afterAll(async () => {
    timeouts.COMMAND_TIMEOUT_MS = commandTimeout;
    await Promise.all([a?.close(), b?.close()]);
  });

  it('count /verify requests from one address together', async () => {
    // A fresh address per run keeps this run's bucket apart from any other.
    const ip = `172.${randomInt(16, 32)}.${randomInt(256)}.${randomInt(1, 255)}`;
    const verify = (app: TestApp) =>
      app.app.inject({
        url: '/auth/v1/verify?type=signup&token=nothing',
        remoteAddress: ip,
        headers: { 'x-supabase-api-version': '2024-01-01' },
      });
    // Taking turns until one instance refuses: 30 between them (each alone would allow 30, so
    // 60 if the count were not shared). The bucket refills 0.1 a second and, under a busy
    // machine, a take that Redis answers late is answered from memory: a couple more may pass.
    let allowed = 0;
    let refused: Awaited<ReturnType<typeof verify>> | undefined;
    const started = Date.now();
    for (let i = 0; i < 60 && !refused; i++) {
      const res = await verify(i % 2 === 0 ? a : b);
      if (res.statusCode === 429) refused = res;
      else {
        expect(res.statusCode).toBe(303);
        allowed++;
      }
    }
    expect(allowed).toBeGreaterThanOrEqual(30);
    // What the bucket refilled meanwhile (0.1 a second) passes too: on a slow machine the turns
    // take tens of seconds (35 passed in one CI run on PGlite). Unshared counts would pass 60.
    const refilled = Math.ceil(((Date.now() - started) / 1000) * 0.1);
    expect(allowed).toBeLessThanOrEqual(33 + refilled);
    expect(refused?.json().code).toBe('over_request_rate_limit');
    // Both instances now refuse the address.
    expect((await verify(a)).statusCode).toBe(429);
    expect((await verify(b)).statusCode).toBe(429);
  });
});
