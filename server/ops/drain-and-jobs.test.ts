import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/build-test-app.ts';

/**
 * Issue 19: what an instance does while it drains (the rolling restart behind haproxy is in
 * several-instances.test.ts). Background jobs while draining: server/jobs/runtime.test.ts.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
}, 120_000);
afterAll(() => t?.close());

describe('draining (after SIGTERM)', () => {
  it('answers /readyz 503 while /healthz and the API still answer, closing each connection', async () => {
    expect((await t.app.inject('/readyz')).statusCode).toBe(200);
    t.app.lifecycle.draining = true;
    try {
      const ready = await t.app.inject('/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json().error.code).toBe('shutting_down');
      const health = await t.app.inject('/healthz');
      expect(health.statusCode).toBe(200);
      expect(health.headers.connection).toBe('close');
      const settings = await t.app.inject('/api/v1/public/settings');
      expect(settings.statusCode).toBe(200);
    } finally {
      t.app.lifecycle.draining = false;
    }
    expect((await t.app.inject('/readyz')).headers.connection).not.toBe('close');
  });
});
