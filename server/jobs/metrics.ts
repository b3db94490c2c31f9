import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** What the runtime records of each job's runs; one set per /metrics registry. */
export type JobMetrics = {
  /** Makes the job's series appear (at zero) before its first run; a name is taken once. */
  add(job: string): void;
  /** One run that ended, successfully or not, after `seconds`. */
  ran(job: string, seconds: number, ok: boolean): void;
};

const byRegistry = new WeakMap<Registry, JobMetrics>();

/**
 * The job series on `registry` (created with its first job): portal_job_runs_total,
 * portal_job_failures_total, portal_job_duration_seconds, portal_job_last_run_timestamp_seconds
 * and portal_job_last_success_timestamp_seconds, each labelled by job.
 */
export function jobMetrics(registry: Registry): JobMetrics {
  const known = byRegistry.get(registry);
  if (known) return known;
  const registers = [registry];
  const labelNames = ['job'] as const;
  const runs = new Counter({
    name: 'portal_job_runs_total',
    help: 'Runs of each background job on this instance, failed ones included',
    labelNames,
    registers,
  });
  const failures = new Counter({
    name: 'portal_job_failures_total',
    help: 'Runs of each background job on this instance that threw',
    labelNames,
    registers,
  });
  const duration = new Histogram({
    name: 'portal_job_duration_seconds',
    help: 'How long each run of a background job took',
    labelNames,
    buckets: [0.001, 0.005, 0.025, 0.1, 0.5, 2.5, 10, 60, 300],
    registers,
  });
  const lastRun = new Gauge({
    name: 'portal_job_last_run_timestamp_seconds',
    help: 'When the last run of each background job on this instance ended (Unix time)',
    labelNames,
    registers,
  });
  const lastSuccess = new Gauge({
    name: 'portal_job_last_success_timestamp_seconds',
    help: 'When the last successful run of each background job on this instance ended',
    labelNames,
    registers,
  });
  const names = new Set<string>();
  const metrics: JobMetrics = {
    add(job) {
      if (names.has(job)) throw new Error(`A background job named ${job} is registered already.`);
      names.add(job);
      runs.inc({ job }, 0);
      failures.inc({ job }, 0);
      duration.zero({ job });
    },
    ran(job, seconds, ok) {
      runs.inc({ job });
      if (!ok) failures.inc({ job });
      duration.observe({ job }, seconds);
      lastRun.setToCurrentTime({ job });
      if (ok) lastSuccess.setToCurrentTime({ job });
    },
  };
  byRegistry.set(registry, metrics);
  return metrics;
}
