import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

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
