import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsPlugin } from '../http/metrics.ts';
import { buildTestApp, type TestApp } from '../test/build-test-app.ts';
import { claimPeriod } from './claim.ts';
import { keepAlive } from './keep-alive.ts';
import { type InstanceJob, type Job, registerJob } from './runtime.ts';

/**
 * Issue 28: one runtime for every background loop. Small apps sharing the test database stand
 * for instances of one cluster; intervals are short and the time real.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
}, 120_000);
afterAll(() => t?.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let seq = 0;
const uniqueName = (what: string) => `test-${what}-${Date.now().toString(36)}-${seq++}`;

/** An instance job that runs at once, then every `everyMs` (with `more` of its options). */
const startingNow = (
  name: string,
  everyMs: number,
  run: InstanceJob['run'],
  more: Partial<InstanceJob> = {},
): InstanceJob => ({ name, scope: 'instance', everyMs, firstRunMs: 0, run, ...more });

/** An instance: the config, the database and /metrics of the test app, and the given jobs. */
async function instance(jobs: Job[], opts: { draining?: boolean } = {}) {
  const app = Fastify({ logger: false });
  app.decorate('config', t.config);
  app.decorate('db', t.db);
  app.decorate('lifecycle', { draining: opts.draining ?? false });
  await app.register(metricsPlugin);
  for (const job of jobs) registerJob(app, job);
  await app.ready();
  return app;
}

/** The value of one job's series in /metrics, or undefined when it is not there. */
async function metric(app: FastifyInstance, name: string, job: string) {
  const text = (await app.inject('/metrics')).body;
  const line = text.split('\n').find((l) => l.startsWith(`${name}{job="${job}"}`));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

async function waitFor(check: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(10);
  }
}

describe('claimPeriod', () => {
  it('one claim per period wins, however many instances ask at once', async () => {
    const name = uniqueName('claim');
    const first = await Promise.all(Array.from({ length: 6 }, () => claimPeriod(t.db, name, 800)));
    expect(first.filter(Boolean)).toHaveLength(1);
    expect(await claimPeriod(t.db, name, 800)).toBe(false);
    await sleep(900);
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

describe('registerJob', () => {
  it('runs a cluster job once per period across two instances sharing the database', async () => {
    const name = uniqueName('cluster');
    const runs: { by: string; at: number }[] = [];
    const job = (by: string): Job => ({
      name,
      scope: 'cluster',
      everyMs: 600,
      checkEveryMs: 40,
      firstRunMs: 0,
      run: async () => {
        runs.push({ by, at: performance.now() });
      },
    });
    const apps = [await instance([job('a')]), await instance([job('b')])];
    await sleep(1500);
    await Promise.all(apps.map((a) => a.close()));
    // Periods start at about 0, 600 and 1200 ms: two or three runs, never two in one period.
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.length).toBeLessThanOrEqual(3);
    for (let i = 1; i < runs.length; i++) {
      expect(runs[i]!.at - runs[i - 1]!.at).toBeGreaterThan(400);
    }
  });

  it('runs an instance job on each instance, never two runs of it at once', async () => {
    const name = uniqueName('instance');
    const runs = { a: 0, b: 0 };
    const inRun = { a: 0, b: 0 };
    let overlapped = false;
    const job = (by: 'a' | 'b'): Job => ({
      name,
      scope: 'instance',
      everyMs: 20,
      run: async () => {
        if (++inRun[by] > 1) overlapped = true;
        runs[by] += 1;
        await sleep(30);
        inRun[by] -= 1;
      },
    });
    const a = await instance([job('a')]);
    const b = await instance([job('b')]);
    await waitFor(() => runs.a >= 3 && runs.b >= 3);
    await Promise.all([a.close(), b.close()]);
    expect(overlapped).toBe(false);
  });

  it('counts a failing run in /metrics and keeps running', async () => {
    const name = uniqueName('failing');
    let calls = 0;
    const app = await instance([
      startingNow(name, 20, async () => {
        calls += 1;
        if (calls <= 3) throw new Error('the database is away');
        return calls;
      }),
    ]);
    try {
      await waitFor(() => calls >= 5);
      expect(await metric(app, 'portal_job_failures_total', name)).toBe(3);
      expect(await metric(app, 'portal_job_runs_total', name)).toBeGreaterThanOrEqual(5);
      const lastRun = await metric(app, 'portal_job_last_run_timestamp_seconds', name);
      expect(Math.abs(lastRun! - Date.now() / 1000)).toBeLessThan(5);
      expect(await metric(app, 'portal_job_last_success_timestamp_seconds', name)).toBeDefined();
    } finally {
      await app.close();
    }
  });

  it('stops on close: waits for the run in progress, then onStop, and runs no more', async () => {
    const name = uniqueName('closing');
    const events: string[] = [];
    let runs = 0;
    const app = await instance([
      startingNow(
        name,
        10,
        async ({ stopping }) => {
          runs += 1;
          events.push('run');
          await sleep(150);
          events.push(stopping() ? 'run ended, told to stop' : 'run ended');
        },
        {
          onStop: async () => {
            events.push('stopped');
          },
        },
      ),
    ]);
    await waitFor(() => runs === 1);
    await app.close();
    expect(events).toEqual(['run', 'run ended, told to stop', 'stopped']);
    await sleep(100);
    expect(runs).toBe(1);
  });

  it('starts no run while the instance drains, unless the job runs on while draining', async () => {
    const runs = { usual: 0, draining: 0 };
    const app = await instance(
      [
        startingNow(uniqueName('usual'), 10, async () => {
          runs.usual += 1;
        }),
        startingNow(
          uniqueName('on-while-draining'),
          10,
          async () => {
            runs.draining += 1;
          },
          { whileDraining: true },
        ),
      ],
      { draining: true },
    );
    await waitFor(() => runs.draining >= 3);
    await app.close();
    expect(runs.usual).toBe(0);
  });

  it('runs a job without everyMs once, and again when woken', async () => {
    const name = uniqueName('once');
    let runs = 0;
    const app = Fastify({ logger: false });
    app.decorate('db', t.db);
    const handle = registerJob(app, {
      name,
      scope: 'instance',
      firstRunMs: 10,
      run: async () => {
        runs += 1;
      },
    });
    handle.wake(); // before onReady: nothing to wake yet
    await app.ready();
    await waitFor(() => runs === 1);
    await sleep(100);
    expect(runs).toBe(1);
    handle.wake();
    await waitFor(() => runs === 2);
    await app.close();
  });

  it('refuses a second job of the same name on one app', async () => {
    const name = uniqueName('twice');
    const app = Fastify({ logger: false });
    app.decorate('config', t.config);
    await app.register(metricsPlugin);
    const job: Job = { name, scope: 'instance', everyMs: 1000, run: async () => {} };
    registerJob(app, job);
    expect(() => registerJob(app, job)).toThrow(/registered already/);
    await app.close();
  });
});

describe('keepAlive', () => {
  it('renews until stopped, never two renewals at once, a failure not ending it', async () => {
    let renewals = 0;
    let inRenewal = 0;
    let overlapped = false;
    const errors: unknown[] = [];
    const stop = keepAlive(
      10,
      async () => {
        if (++inRenewal > 1) overlapped = true;
        renewals += 1;
        await sleep(25);
        inRenewal -= 1;
        if (renewals === 1) throw new Error('lost the connection');
      },
      (err) => errors.push(err),
    );
    await waitFor(() => renewals >= 3);
    stop();
    const after = renewals;
    await sleep(60);
    expect(renewals).toBe(after);
    expect(overlapped).toBe(false);
    expect(errors).toHaveLength(1);
  });
});

describe('the app’s jobs in /metrics', () => {
  it('lists every background job of the app with its series', async () => {
    const text = (await t.app.inject('/metrics')).body;
    for (const job of [
      'report-fold',
      'report-hot-vacuum',
      'report-warm-up',
      'idempotency-key-sweep',
      'ingest-usage-flush',
      'ingest-unauthorized-report',
      'ingest-refusal-sweep',
      'stale-draft-cleanup',
      'network-balance-fold',
      'payout-holds-fold',
      'report-names-fold',
    ]) {
      expect(text).toContain(`portal_job_runs_total{job="${job}"}`);
      expect(text).toContain(`portal_job_failures_total{job="${job}"} 0`);
      expect(text).toContain(`portal_job_duration_seconds_count{job="${job}"}`);
    }
    // The report fold runs every second from the start.
    await sleep(1200);
    const after = (await t.app.inject('/metrics')).body;
    expect(after).toMatch(/portal_job_last_run_timestamp_seconds\{job="report-fold"\} \d/);
    expect(after).toMatch(/portal_job_runs_total\{job="report-fold"\} [1-9]/);
  });
});
