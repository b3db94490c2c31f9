// The report rollups' queue (drizzle/0021): lead writes append deltas to report_deltas, and
// fold_report_deltas() moves them into the rollup tables. Each instance folds every second in
// the background (skipping when another session is folding), and every report read folds first,
// so what a report shows counts every lead committed before it was asked for.
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type DbOrTx, rowsOf as rowsOfSql } from '../../db/client.ts';
import { underPressure } from '../../jobs/pressure.ts';
import { registerJob } from '../../jobs/runtime.ts';
import { foldNamesParts } from './report-names.ts';

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
 * Small tables every call, batch or fold updates in place: the report queue, each publisher's
 * balance, the lead and payout totals' slots, the integrations' usage counts, the campaigns'
 * spend and their days' slots, the buyers' balances, the offers' cap slots, the fraud rules'
 * publisher-hour counters (two updates per call), the outbound queue and the postback targets'
 * state. Each update leaves a dead row version; PostgreSQL's autovacuum normally clears them,
 * but it can be off on a server (it was on this project's benchmark machine, where ingestion
 * fell from ~2,300 to ~900 req/s over a few runs; on 2026-11-27 `fraud_publisher_hours` held
 * 924 dead versions of its one row and `outbound_events` 28,209 after a few bench runs), and
 * PGlite has none. So each instance vacuums these few small tables itself.
 */
export const HOT_TABLES = [
  'report_deltas',
  'publisher_balances',
  'lead_totals',
  'lead_daily_totals',
  'payout_totals',
  'payout_day_totals',
  'integrations',
  'campaigns',
  'campaign_spend_days',
  'buyer_billing',
  'offer_cap_usage',
  'fraud_publisher_hours',
  'outbound_events',
  'postback_targets',
] as const;
/** How often each instance vacuums HOT_TABLES. */
export const HOT_VACUUM_INTERVAL_MS = 60_000;

/** VACUUM of HOT_TABLES, skipping any another session is vacuuming (not in a transaction). */
export async function vacuumHotTables(db: DbOrTx): Promise<void> {
  await db.execute(sql.raw(`vacuum (skip_locked) ${HOT_TABLES.join(', ')}`));
}

/**
 * Big tables the portal rewrites rows of all day: the report rollups (every fold), the leads (a
 * call's later events, judgements), the fraud flags and caller counters, the outbound deliveries. PostgreSQL's
 * autovacuum looks after them; where it is off (a server configured so, as this project's
 * benchmark server is) and on PGlite (which has no autovacuum at all), their dead row versions
 * pile up and every read of them slows: at 1M leads, after a day of calls and one 100k-row
 * import, the year report by vertical went from ~10 to 49 ms in the database; the deliveries
 * (claimed, then recorded: two new versions each) held 138k dead rows for 66k live after a few
 * bench runs, and every claim walked them.
 */
export const CHURNED_TABLES = [
  'report_day_totals',
  'report_month_totals',
  'report_span_totals',
  'report_time_totals',
  'payout_time_totals',
  'fraud_flags',
  'fraud_caller_hours',
  'outbound_deliveries',
  'leads',
] as const;
/** How often one instance of the cluster looks at CHURNED_TABLES when nothing vacuums them. */
export const CHURNED_VACUUM_INTERVAL_MS = 5 * 60_000;

/**
 * Runs of `churned-vacuum` in a row that may leave their tables for later while the call
 * postbacks queue (server/jobs/pressure.ts); the next one vacuums whatever the load.
 */
export const CHURNED_VACUUM_MAX_YIELDS = 3;

/**
 * VACUUM (ANALYZE) of the churned tables whose dead rows passed autovacuum's own default
 * threshold (50 + 20% of the live rows), and ANALYZE of those whose changes passed its analyze
 * threshold, one at a time, only when nothing else does: on PGlite, or when the server's
 * `autovacuum` is off. Answers the tables it vacuumed or analyzed (`done`) and those it left
 * for the next run (`left`): before each table it asks `yieldWhile`, and stops while it holds.
 *
 * Like autovacuum, it uses no parallel workers: a vacuum of the leads or the deliveries (a
 * million rows and more) with two workers took both cores of a 2-core server from the calls
 * arriving beside it (bench/vacuum-yield-2026-11-29.md).
 */
export async function vacuumChurnedTables(
  db: DbOrTx,
  opts: { autovacuum: boolean; yieldWhile?: () => boolean },
): Promise<{ done: string[]; left: string[] }> {
  if (opts.autovacuum) {
    const [row] = await rowsOfSql<{ on: boolean }>(
      db,
      sql`select current_setting('autovacuum') = 'on' as on`,
    );
    if (row?.on) return { done: [], left: [] };
  }
  // Vacuumed past the dead rows' threshold; analyzed only past autovacuum's analyze threshold
  // (50 + 10% of the rows changed since the last analyze) or when never analyzed: a table that
  // only grew (the demo's or an import's leads, a day of calls) has no dead rows, and without
  // statistics the planner guesses (on PGlite at 100k leads, a big publisher's leads by payout
  // read 16k rows, 27 ms, instead of walking the payout index).
  const due = await rowsOfSql<{ relname: string; vacuum: boolean }>(
    db,
    sql`select s.relname, s.n_dead_tup > 50 + 0.2 * s.n_live_tup as vacuum
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.relname = any(${`{${CHURNED_TABLES.join(',')}}`}::text[])
        and (s.n_dead_tup > 50 + 0.2 * s.n_live_tup
             or s.n_mod_since_analyze > 50 + 0.1 * greatest(s.n_live_tup, c.reltuples)
             or c.reltuples < 0)
      order by s.relname`,
  );
  const done: string[] = [];
  for (const [i, { relname, vacuum }] of due.entries()) {
    if (opts.yieldWhile?.()) return { done, left: due.slice(i).map((t) => t.relname) };
    await db.execute(
      sql.raw(
        vacuum
          ? `vacuum (skip_locked, analyze, parallel 0) ${relname}`
          : `analyze (skip_locked) ${relname}`,
      ),
    );
    done.push(relname);
  }
  return { done, left: [] };
}

/**
 * The `churned-vacuum` job's run: the tables wait while the calls queue, at most
 * CHURNED_VACUUM_MAX_YIELDS runs in a row (5 minutes apart), so a long burst delays the
 * vacuum by a quarter of an hour, never for good. Answers the tables it vacuumed or analyzed.
 */
export function churnedVacuumRun(
  autovacuum: boolean,
  pressed: () => boolean = underPressure,
): (db: DbOrTx) => Promise<string[]> {
  let yielded = 0;
  return async (db) => {
    const yieldWhile = yielded < CHURNED_VACUUM_MAX_YIELDS ? pressed : undefined;
    const { done, left } = await vacuumChurnedTables(db, { autovacuum, yieldWhile });
    yielded = left.length ? yielded + 1 : 0;
    return done;
  };
}

/**
 * The instance jobs `report-fold` (every REPORT_FOLD_INTERVAL_MS) and `report-hot-vacuum` (a
 * few seconds after the start, for what a previous run left, then every HOT_VACUUM_INTERVAL_MS);
 * neither starts while the instance drains. The cluster jobs `report-names-fold` (the names'
 * stamp parts, each minute) and `churned-vacuum`.
 */
export function registerReportFold(app: FastifyInstance): void {
  // One turn for both: a vacuum never runs beside a fold of this instance.
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = (work: () => Promise<unknown>): Promise<void> => {
    const mine = turn.then(work);
    turn = mine.catch(() => {});
    return mine.then(() => {});
  };
  registerJob(app, {
    name: 'report-fold',
    scope: 'instance',
    everyMs: REPORT_FOLD_INTERVAL_MS,
    run: ({ db }) => inTurn(() => db.execute(sql`select fold_report_deltas(false)`)),
  });
  registerJob(app, {
    name: 'report-hot-vacuum',
    scope: 'instance',
    everyMs: HOT_VACUUM_INTERVAL_MS,
    firstRunMs: 5000,
    run: ({ db }) => inTurn(() => vacuumHotTables(db)),
  });
  // The names' stamp parts (drizzle/0058): one per statement that may change a name.
  registerJob(app, {
    name: 'report-names-fold',
    scope: 'cluster',
    everyMs: 60_000,
    run: ({ db }) => foldNamesParts(db),
  });
  // PGlite has no autovacuum; a server may have it off (checked at each run).
  const churnedVacuum = churnedVacuumRun(app.database.kind === 'postgres');
  registerJob(app, {
    name: 'churned-vacuum',
    scope: 'cluster',
    everyMs: CHURNED_VACUUM_INTERVAL_MS,
    run: ({ db }) => inTurn(async () => (await churnedVacuum(db)).length),
  });
}
