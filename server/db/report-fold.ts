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

/**
 * Small tables every call or fold updates in place: the report queue, each publisher's balance,
 * the lead and payout totals' slots, the integrations' usage counts. Each update leaves a dead
 * row version; PostgreSQL's autovacuum normally clears them, but it can be off on a server (it
 * was on this project's benchmark machine, where ingestion fell from ~2,300 to ~900 req/s over
 * a few runs), and PGlite has none. So each instance vacuums these few small tables itself.
 */
export const HOT_TABLES = [
  'report_deltas',
  'publisher_balances',
  'lead_totals',
  'lead_daily_totals',
  'payout_totals',
  'payout_daily_totals',
  'integrations',
] as const;
/** How often each instance vacuums HOT_TABLES. */
export const HOT_VACUUM_INTERVAL_MS = 60_000;

/** VACUUM of HOT_TABLES, skipping any another session is vacuuming (not in a transaction). */
export async function vacuumHotTables(db: DbOrTx): Promise<void> {
  await db.execute(sql.raw(`vacuum (skip_locked) ${HOT_TABLES.join(', ')}`));
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
  // The hot tables' vacuum, in the same chain (never beside a fold of this instance).
  let vacuumFailures = 0;
  const vacuum = () => {
    if (app.lifecycle?.draining) return;
    running = running.then(async () => {
      try {
        await vacuumHotTables(app.db);
        vacuumFailures = 0;
      } catch (err) {
        if (vacuumFailures++ === 0) app.log.warn({ err }, 'vacuuming the hot tables failed');
      }
    });
  };
  let vacuumTimer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(tick, REPORT_FOLD_INTERVAL_MS);
    timer.unref();
    // The first a few seconds after the start (what a previous run left), then every minute.
    vacuumTimer = setTimeout(() => {
      vacuum();
      vacuumTimer = setInterval(vacuum, HOT_VACUUM_INTERVAL_MS);
      vacuumTimer.unref();
    }, 5000);
    vacuumTimer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    if (vacuumTimer) clearTimeout(vacuumTimer);
    timer = undefined;
    vacuumTimer = undefined;
    await running;
  });
}
