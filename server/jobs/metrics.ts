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
  // Every series is per job and lives on this registry.
  const series = (name: string, help: string) => ({
    name,
    help,
    labelNames: ['job'] as const,
    registers: [registry],
  });
  const runs = new Counter(
    series(
      'portal_job_runs_total',
      'Runs of each background job on this instance, failed ones included',
    ),
  );
  const failures = new Counter(
    series('portal_job_failures_total', 'Runs of each background job on this instance that threw'),
  );
  const duration = new Histogram({
    ...series('portal_job_duration_seconds', 'How long each run of a background job took'),
    buckets: [0.001, 0.005, 0.025, 0.1, 0.5, 2.5, 10, 60, 300],
  });
  const lastRun = new Gauge(
    series(
      'portal_job_last_run_timestamp_seconds',
      'When the last run of each background job on this instance ended (Unix time)',
    ),
  );
  const lastSuccess = new Gauge(
    series(
      'portal_job_last_success_timestamp_seconds',
      'When the last successful run of each background job on this instance ended',
    ),
  );
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
