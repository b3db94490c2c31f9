// Every background loop of the server runs through registerJob: once per cluster (the period
// claimed in job_runs) or on each instance, never two runs of one job at once, stopped on
// close, and counted in /metrics. Infrastructure: imports db/, never modules/.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Db } from '../db/client.ts';
import { claimPeriod } from './claim.ts';
import { type JobMetrics, jobMetrics } from './metrics.ts';

export type JobContext = {
  db: Db;
  /** The app's logger with `job` set. */
  log: FastifyBaseLogger;
  /** True once the instance drains or closes: a long run gives its rest back and returns. */
  stopping(): boolean;
};

type CommonJob = {
  /** Unique per app: the metrics label, the log's `job` and, cluster-wide, the job_runs key. */
  name: string;
  /**
   * The first run (cluster: the first check) this long after onReady; 0 starts it within
   * onReady (not awaited). Default: cluster 30 s, instance everyMs (or 0 when run once).
   */
  firstRunMs?: number;
  /**
   * Runs on while the instance drains, for work the requests it still serves need (their
   * usage counts, its heartbeat). By default a draining instance starts no run.
   */
  whileDraining?: boolean;
  /** The work. A number greater than 0 it answers is logged as the run's result. */
  run(ctx: JobContext): Promise<unknown>;
  /** On close, once the run in progress ended: a last flush, this instance's row removed. */
  onStop?(ctx: JobContext): Promise<unknown>;
};

export type ClusterJob = CommonJob & {
  /** One run per period across every instance sharing the database. */
  scope: 'cluster';
  /** The period: at most one run per this long across the cluster. */
  everyMs: number;
  /** How often each instance asks whether the period is up; default everyMs / 4 in 1 s…60 s. */
  checkEveryMs?: number;
};

export type InstanceJob = CommonJob & {
  /** Runs on each instance on its own. */
  scope: 'instance';
  /** The pause from the end of one run to the start of the next; omitted: one run only. */
  everyMs?: number;
};

export type Job = ClusterJob | InstanceJob;

export type JobHandle = {
  /** Runs the job now, or right after the run in progress (a cluster job still claims). */
  wake(): void;
};

/**
 * Registers a background job on `app`: started on onReady, stopped on onClose (which waits for
 * a run in progress, then calls onStop). Runs of one job never overlap: the next is timed from
 * the end of the previous. A run that throws is logged (the first of a row of failures as a
 * warning, the rest at debug level) and counted; the job keeps its schedule. All timers are
 * unref'd. With the /metrics plugin, the job's series are portal_job_*{job="<name>"}.
 */
export function registerJob(app: FastifyInstance, job: Job): JobHandle {
  const cluster = job.scope === 'cluster';
  const pause = cluster
    ? (job.checkEveryMs ?? Math.min(Math.max(1000, job.everyMs / 4), 60_000))
    : job.everyMs;
  const log = app.log.child({ job: job.name });
  const metrics: JobMetrics | undefined = app.hasDecorator('metricsRegistry')
    ? jobMetrics(app.metricsRegistry)
    : undefined;
  metrics?.add(job.name);

  let started = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let failures = 0;
  const draining = () => app.lifecycle?.draining === true;
  const ctx: JobContext = {
    get db() {
      return app.db;
    },
    log,
    stopping: () => stopped || draining(),
  };

  const once = async () => {
    if (draining() && !job.whileDraining) return;
    let began = performance.now();
    try {
      if (cluster && !(await claimPeriod(app.db, job.name, job.everyMs))) return;
      began = performance.now();
      const result = await job.run(ctx);
      if (typeof result === 'number' && result > 0) log.info({ result }, `${job.name} done`);
      if (failures > 0) log.info({ failures }, `${job.name} works again`);
      failures = 0;
      metrics?.ran(job.name, (performance.now() - began) / 1000, true);
    } catch (err) {
      // A failed claim (the database is away) counts as a failed run too.
      if (failures++ === 0) log.warn({ err }, `${job.name} failed`);
      else log.debug({ err, failures }, `${job.name} failed again`);
      metrics?.ran(job.name, (performance.now() - began) / 1000, false);
    }
  };

  const schedule = (ms: number | undefined) => {
    if (stopped || ms === undefined) return;
    timer = setTimeout(start, ms);
    timer.unref();
  };

  function start() {
    timer = undefined;
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = once().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        start();
      } else schedule(pause);
    });
  }

  app.addHook('onReady', async () => {
    if (stopped) return;
    started = true;
    const first = job.firstRunMs ?? (cluster ? 30_000 : (job.everyMs ?? 0));
    if (first === 0) start();
    else schedule(first);
  });

  app.addHook('onClose', async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (running) await running;
    if (!job.onStop) return;
    try {
      await job.onStop(ctx);
    } catch (err) {
      log.warn({ err }, `${job.name}: stopping failed`);
    }
  });

  return {
    wake() {
      if (!started || stopped) return;
      if (timer) clearTimeout(timer);
      start();
    },
  };
}
