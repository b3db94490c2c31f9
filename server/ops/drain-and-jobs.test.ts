import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimPeriod } from '../db/periodic-job.ts';
import { buildTestApp, type TestApp } from '../test/build-test-app.ts';

/**
 * Issue 19: what an instance does while it drains (the rolling restart behind haproxy is in
 * several-instances.test.ts), and background jobs claimed once per period.
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

describe('periodic jobs', () => {
  it('one claim per period wins, however many instances ask at once', async () => {
    const name = `test-job-${Date.now()}`;
    const first = await Promise.all(Array.from({ length: 6 }, () => claimPeriod(t.db, name, 800)));
    expect(first.filter(Boolean)).toHaveLength(1);
    expect(await claimPeriod(t.db, name, 800)).toBe(false);
    await new Promise((r) => setTimeout(r, 900));
    const next = await Promise.all(Array.from({ length: 6 }, () => claimPeriod(t.db, name, 800)));
    expect(next.filter(Boolean)).toHaveLength(1);
    const [row] = (
      (await t.db.execute(sql`select count(*)::int as n from job_runs where name = ${name}`)) as {
        rows: { n: number }[];
      }
    ).rows;
    expect(row!.n).toBe(1);
  });
});
