import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/build-test-app.ts';
import { loggerOptions } from './request-log.ts';

// Issue 16 item 18: one log line per request (method, path, status, time), JSON in production,
// pino-pretty in development.
const lines: Record<string, unknown>[] = [];
const stream = new Writable({
  write(chunk, _enc, done) {
    for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l));
    done();
  },
});
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ deps: { logger: { level: 'info', stream } } });
});
afterAll(async () => {
  await t?.close();
});

describe('request log', () => {
  it('writes one line per answered request with method, path (no query), status and time', async () => {
    lines.length = 0;
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/me?x=secret-ish' });
    expect(res.statusCode).toBe(401);
    const mine = lines.filter((l) => l.url === '/api/v1/me');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ method: 'GET', statusCode: 401, level: 30 });
    expect(typeof mine[0]!.ms).toBe('number');
    expect(mine[0]!.msg).toMatch(/^GET \/api\/v1\/me 401 [\d.]+ ms$/);
    // Fastify's own "incoming request" / "request completed" pair is off.
    expect(lines.some((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toBe(
      false,
    );
  });

  it('keeps health probes out of the info log', async () => {
    lines.length = 0;
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect(lines.filter((l) => l.url === '/healthz')).toEqual([]);
  });

  it('is pretty in development and JSON in production', () => {
    const dev = loggerOptions({ nodeEnv: 'development', logLevel: 'info' }) as {
      transport?: { target: string };
    };
    expect(dev.transport?.target).toBe('pino-pretty');
    const prod = loggerOptions({ nodeEnv: 'production', logLevel: 'info' }) as {
      transport?: unknown;
    };
    expect(prod.transport).toBeUndefined();
  });
});
