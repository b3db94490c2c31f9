import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from './client.ts';

/** This process, as named in job_runs.last_run_by. */
const runner = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * Claims this period's run of `name`: true for exactly one caller per `periodMs` across every
 * instance sharing the database (one atomic upsert on job_runs; no lock is held while the job
 * runs, so a crash mid-run only means the next period runs it again).
 */
export async function claimPeriod(db: Db, name: string, periodMs: number): Promise<boolean> {
  const result = await db.execute(sql`
    insert into job_runs (name, last_run_at, last_run_by) values (${name}, now(), ${runner})
    on conflict (name) do update set last_run_at = now(), last_run_by = excluded.last_run_by
      where job_runs.last_run_at <= now() - ${`${periodMs} milliseconds`}::interval
    returning name`);
  const rows = (result as unknown as { rows?: unknown[] }).rows ?? (result as unknown as unknown[]);
  return rows.length > 0;
}

export type PeriodicJob = {
  /** Unique per job: the job_runs key. */
  name: string;
  /** At most one run per this period across all instances. */
  periodMs: number;
  /** The work; its result is logged when it is a number greater than 0 (`what` counts). */
  run: (db: Db) => Promise<unknown>;
  /** How often each instance asks whether the period is up; default periodMs / 4, ≤ 60 s. */
  checkEveryMs?: number;
  /** The first check after start-up; default 30 s. */
  firstCheckMs?: number;
};

/**
 * Runs a background job once per period across every instance (draft clean-up; payout runs,
 * report roll-ups and digests as they land): each instance checks on a timer from onReady and
 * runs the job only when it wins the period's claim. Stops claiming when the instance drains
 * (SIGTERM) and waits for a run in progress on close.
 */
export function registerPeriodicJob(app: FastifyInstance, job: PeriodicJob): void {
  const every = job.checkEveryMs ?? Math.min(Math.max(1000, job.periodMs / 4), 60_000);
  let timers: NodeJS.Timeout[] = [];
  let running: Promise<unknown> = Promise.resolve();
  const log = app.log.child({ job: job.name });
  const check = () => {
    if (app.lifecycle?.draining) return;
    running = running
      .then(async () => {
        if (app.lifecycle?.draining) return;
        if (!(await claimPeriod(app.db, job.name, job.periodMs))) return;
        const result = await job.run(app.db);
        if (typeof result === 'number' && result > 0) log.info({ result }, `${job.name} done`);
      })
      .catch((err: unknown) => log.warn({ err }, `${job.name} failed`));
  };
  app.addHook('onReady', async () => {
    timers = [setTimeout(check, job.firstCheckMs ?? 30_000), setInterval(check, every)];
    for (const t of timers) t.unref();
  });
  app.addHook('onClose', async () => {
    for (const t of timers) clearTimeout(t);
    timers = [];
    await running;
  });
}
