// The references every bench row carries (issue 29): the SQL the portal runs for the row's
// requests, captured in a dry run (bench/capture-queries.ts) and replayed by the bare Fastify +
// pg server (bench/bare-server.ts), and that SQL's own time in the database: EXPLAIN (ANALYZE,
// BUFFERS) of every captured statement, and pg_stat_statements under load when PostgreSQL
// preloads it. The /healthz reference is measured in bench.ts, interleaved with each row.
import { existsSync, readFileSync } from 'node:fs';
import type pg from 'pg';
import type { CapturedRequest, CapturedStatement } from './capture-queries.ts';
import { once, percentile, type RequestSpec } from './load.ts';

/** One statement as the bare server sends it. */
export type ReplayStatement = Pick<CapturedStatement, 'text' | 'values' | 'name' | 'rowMode'>;

/**
 * One request's SQL, as the bare server replays it: in a transaction on one connection (when the
 * portal opened one), else wave by wave, the statements the portal ran at the same time (their
 * times overlapped) sent together, as its Promise.all did.
 */
export type ReplaySample = { transaction: boolean; waves: ReplayStatement[][] };

/** The file the bare server reads: each row's samples under the row's key. */
export type ReplayFile = { rows: Record<string, ReplaySample[]> };

const strip = (s: CapturedStatement): ReplayStatement => ({
  text: s.text,
  ...(s.values ? { values: s.values } : {}),
  ...(s.name ? { name: s.name } : {}),
  ...(s.rowMode ? { rowMode: s.rowMode } : {}),
});

export function toSample(statements: CapturedStatement[]): ReplaySample {
  const transaction = statements.some((s) => /^\s*begin\b/i.test(s.text));
  if (transaction) return { transaction, waves: statements.map((s) => [strip(s)]) };
  const waves: ReplayStatement[][] = [];
  let waveEnd = Number.NEGATIVE_INFINITY;
  for (const s of [...statements].sort((a, b) => a.start - b.start)) {
    if (waves.length === 0 || s.start >= waveEnd) {
      waves.push([strip(s)]);
      waveEnd = s.end;
    } else {
      waves[waves.length - 1]!.push(strip(s));
      waveEnd = Math.max(waveEnd, s.end);
    }
  }
  return { transaction, waves };
}

/**
 * The dry run: `samples` requests of each row, one at a time, each drawn from the row's pools
 * as the measured run draws them, sent with `x-bench-capture`; then `x-bench-capture: off`.
 * Answers each row's captured samples (its 2xx answers only) by key.
 */
export async function captureRows(opts: {
  portalUrl: string;
  captureFile: string;
  rows: { key: string; source: (w: number) => RequestSpec | Promise<RequestSpec> }[];
  samples: number;
}): Promise<Map<string, ReplaySample[]>> {
  for (const row of opts.rows) {
    for (let i = 0; i < opts.samples; i++) {
      const spec = await row.source(0);
      await once(opts.portalUrl, {
        ...spec,
        headers: { ...spec.headers, 'x-bench-capture': `${row.key}#${i}` },
      });
    }
  }
  await once(opts.portalUrl, {
    method: 'GET',
    path: '/healthz',
    headers: { 'x-bench-capture': 'off' },
  });
  const captured = new Map<string, ReplaySample[]>();
  if (!existsSync(opts.captureFile)) return captured;
  for (const line of readFileSync(opts.captureFile, 'utf8').split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line) as CapturedRequest;
    if (r.status < 200 || r.status >= 300 || r.statements.length === 0) continue;
    const key = r.id.slice(0, r.id.lastIndexOf('#'));
    const list = captured.get(key) ?? [];
    list.push(toSample(r.statements));
    captured.set(key, list);
  }
  return captured;
}

/** Statements EXPLAIN can take (not BEGIN, SET, COMMIT…). */
const explainable = (text: string) => /^\s*\(?\s*(select|with|insert|update|delete)\b/i.test(text);

export type DbTime = {
  /** p95 over the samples of the request's summed Execution Time, ms. */
  p95: number;
  p50: number;
  samples: number;
  /** Statements per request (the guard's session check included). */
  statements: number;
};

/**
 * The SQL's own time in the database per request: every explainable statement of each sample
 * under EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) in a transaction that is rolled back (a write the
 * route made is not kept), their Execution Times summed per request. TIMING OFF leaves out the
 * per-node clock reads that inflate ANALYZE; the total is still measured. Run on a quiet
 * database after the load, each sample once after one untimed pass (caches warm, as under load).
 */
export async function explainTimes(db: pg.Client, samples: ReplaySample[]): Promise<DbTime> {
  const perRequest: number[] = [];
  let statements = 0;
  for (const [pass, list] of [samples.slice(0, 1), samples].entries()) {
    for (const sample of list) {
      let total = 0;
      let count = 0;
      await db.query('begin');
      try {
        for (const s of sample.waves.flat()) {
          if (!explainable(s.text)) continue;
          const r = await db.query<{ 'QUERY PLAN': [{ 'Execution Time': number }] }>(
            `explain (analyze, buffers, timing off, format json) ${s.text}`,
            s.values as unknown[] | undefined,
          );
          total += r.rows[0]!['QUERY PLAN'][0]['Execution Time'];
          count++;
        }
      } finally {
        await db.query('rollback');
      }
      if (pass === 1) {
        perRequest.push(total);
        statements = Math.max(statements, count);
      }
    }
  }
  perRequest.sort((a, b) => a - b);
  return {
    p95: percentile(perRequest, 95),
    p50: percentile(perRequest, 50),
    samples: perRequest.length,
    statements,
  };
}

/**
 * pg_stat_statements in the bench database, when PostgreSQL preloads it
 * (shared_preload_libraries): answers a reader of the database's total execution time so far
 * (ms), or null when it is not there (the extension is then left as it was).
 */
export async function statStatements(db: pg.Client): Promise<(() => Promise<number>) | null> {
  const preloaded = (
    await db.query<{ v: string }>(`select current_setting('shared_preload_libraries') as v`)
  ).rows[0]!.v;
  if (!/\bpg_stat_statements\b/.test(preloaded)) return null;
  try {
    await db.query('create extension if not exists pg_stat_statements');
    const read = async () =>
      Number(
        (
          await db.query<{ ms: string }>(
            `select coalesce(sum(total_exec_time), 0) as ms from pg_stat_statements
              where dbid = (select oid from pg_database where datname = current_database())
                and query not ilike '%pg_stat_statements%'`,
          )
        ).rows[0]!.ms,
      );
    await read();
    return read;
  } catch {
    return null;
  }
}
