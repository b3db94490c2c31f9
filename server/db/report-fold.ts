// The report rollups' queue (drizzle/0021): lead writes append deltas to report_deltas, and
// fold_report_deltas() moves them into the rollup tables. Each instance folds every second in
// the background (skipping when another session is folding), and every report read folds first,
// so what a report shows counts every lead committed before it was asked for.
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DbOrTx } from './client.ts';

/** How often each instance folds the queue in the background. */
export const REPORT_FOLD_INTERVAL_MS = 1000;

const rowsOf = (r: unknown) =>
  ((r as { rows?: unknown[] }).rows ?? (r as unknown[])) as { moved: number }[];

/**
 * Folds the queued deltas into the rollups, waiting for a fold in progress elsewhere (its rows
 * are then folded too). Answers how many deltas it moved; a few hundred µs when none wait.
 */
export async function foldReports(db: DbOrTx): Promise<number> {
  const [row] = rowsOf(await db.execute(sql`select fold_report_deltas(true) as moved`));
  return Number(row?.moved ?? 0);
}

/** Folds in the background every REPORT_FOLD_INTERVAL_MS; stops when the instance drains. */
export function registerReportFold(app: FastifyInstance): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let failures = 0;
  const tick = () => {
    if (app.lifecycle?.draining) return;
    running = running.then(async () => {
      try {
        await app.db.execute(sql`select fold_report_deltas(false)`);
        failures = 0;
      } catch (err) {
        // The database may be restarting: say so once, then quietly try again each second.
        if (failures++ === 0) app.log.warn({ err }, 'folding the report queue failed');
      }
    });
  };
  app.addHook('onReady', async () => {
    timer = setInterval(tick, REPORT_FOLD_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    await running;
  });
}
