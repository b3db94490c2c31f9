// The bench's results: their types, the number formatting, `--compare`, and the final
// table, ladder, import figures and JSON file of a run.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './bench-children.ts';
import type { Sizes } from './fill.ts';
import type { LoadResult } from './load.ts';

/** A reference load's figures: /healthz in the row's window, or the bare route on its SQL. */
export type RefFigures = {
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  errors: number;
  firstError?: string;
};

export type LiveFigures = {
  /** Streams asked for, opened (their snapshot arrived), refused 429, failed otherwise. */
  streams: number;
  opened: number;
  refused: number;
  failed: number;
  /** The first refusal or failure, shortened. */
  firstError?: string;
  openSeconds: number;
  /** Users signed in for them, and the streams that see the posted calls (admins, the publisher). */
  users: number;
  seeing: number;
  /** Streams the server ended (`end`) or closed before the phase did. */
  endedEarly: number;
  /** The ingestion load while they were open. */
  c: number;
  seconds: number;
  calls: number;
  ingestRps: number;
  ingestP50: number;
  ingestP99: number;
  ingestErrors: number;
  ingestServerErrors: number;
  /** Calls that reached every seeing stream within MISSED_AFTER_MS, and the others. */
  seen: number;
  missed: number;
  /** Postback's answer → the lead on a stream, over every (seeing stream, call), ms. */
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The portal's resident memory (MB): before the streams, with them open, after the load. */
  rssMb?: { before: number; open: number; after: number };
};

export type Row = { endpoint: string; c: number } & Omit<LoadResult, 'statuses' | 'firstError'> & {
    statuses: Record<string, number>;
    firstError?: string;
    /** GET /healthz at the same c, in slices taking turns with the row's (bench.ts). */
    healthz?: RefFigures;
    /** The bare Fastify + pg route replaying the row's captured SQL, in the same turns. */
    bare?: RefFigures;
    /** The row's SQL in the database: EXPLAIN ANALYZE of the captured samples (ms per request). */
    db?: { p50: number; p95: number; samples: number; statements: number };
    /** Why EXPLAIN ANALYZE of the captured SQL failed (a smoke run fails on it). */
    dbError?: string;
    /** pg_stat_statements under the row's load: database time per request, ms (when preloaded). */
    dbLoadMs?: number;
    /** An ingest row: the deliveries its calls left at its end, and when they were all sent. */
    deliveries?: string;
  };
export type LadderRow = {
  rung: string;
  c: number;
  rps: number;
  p50?: number;
  p95?: number;
  note?: string;
};
export type Results = {
  startedAt: string;
  smoke: boolean;
  /** The fill's sizes; null for --pglite, whose data is `npm run demo`'s (see `demo`). */
  sizes: Sizes | null;
  demo?: string;
  fill: { reused: boolean; seconds: number; steps: [string, number][] };
  machine: { cpus: number; load: number[]; node: string; postgres: string };
  durationSeconds: number;
  rows: Row[];
  ladder: LadderRow[];
  /** The CSV import and the bulk action over its leads (issue 13), when measured. */
  import?: ImportFigures;
  /** The live streams held under the ingestion load (issue 32), when measured. */
  live?: LiveFigures;
};

export type ImportFigures = {
  rows: number;
  upload: number;
  checkSeconds: number;
  importSeconds: number;
  reimportCheckSeconds: number;
  reimportSeconds: number;
  bulkSeconds: number;
  bulkChanged: number;
};

export const fmt = (n: number, digits = 1) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '-';
export const ms = (n: number) => (n >= 100 ? fmt(n, 0) : n >= 10 ? fmt(n, 1) : fmt(n, 2));

export function table(head: string[], rows: string[][], rightFrom = 1): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i >= rightFrom ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** `x / y` as "0.85×", or "-" when either is missing. */
export const ratio = (x: number | undefined, y: number | undefined, digits = 2) =>
  x !== undefined && y !== undefined && Number.isFinite(x) && Number.isFinite(y) && y > 0
    ? `${fmt(x / y, digits)}×`
    : '-';

/** A row's references as the tables show them. */
export function refCells(r: Row) {
  return {
    rpsHz: ratio(r.rps, r.healthz?.rps),
    p95Hz: ratio(r.p95, r.healthz?.p95, 1),
    bareRps: r.bare ? fmt(r.bare.rps) : '-',
    rpsBare: ratio(r.rps, r.bare?.rps),
    dbP95: r.db ? ms(r.db.p95) : '-',
    dbLoad: r.dbLoadMs === undefined ? '-' : ms(r.dbLoadMs),
  };
}

export function compare(aFile: string, bFile: string) {
  const a = JSON.parse(readFileSync(aFile, 'utf8')) as Results;
  const b = JSON.parse(readFileSync(bFile, 'utf8')) as Results;
  const pct = (x: number, y: number) =>
    Number.isFinite(x) && Number.isFinite(y) && x > 0
      ? `${y >= x ? '+' : ''}${fmt(((y - x) / x) * 100, 0)}%`
      : '-';
  const key = (r: { endpoint: string; c: number }) => `${r.endpoint}@${r.c}`;
  const before = new Map(a.rows.map((r) => [key(r), r]));
  const pairs: [Row | undefined, Row | undefined][] = b.rows.map((r) => [before.get(key(r)), r]);
  const after = new Set(b.rows.map(key));
  for (const o of a.rows) if (!after.has(key(o))) pairs.push([o, undefined]);
  const rows = pairs.map(([o, r]) => {
    const any = (r ?? o)!;
    return [
      any.endpoint,
      String(any.c),
      o ? fmt(o.rps) : '-',
      r ? fmt(r.rps) : '-',
      !o ? 'new' : !r ? 'gone' : pct(o.rps, r.rps),
      o ? ms(o.p95) : '-',
      r ? ms(r.p95) : '-',
      !o ? 'new' : !r ? 'gone' : pct(o.p95, r.p95),
    ];
  });
  console.log(`${aFile} (${a.startedAt}) → ${bFile} (${b.startedAt})\n`);
  console.log(
    table(['endpoint', 'c', 'req/s A', 'req/s B', 'Δ req/s', 'p95 A', 'p95 B', 'Δ p95'], rows, 1),
  );
  // The references: route ÷ bare route (req/s), the SQL's p95 in the database, p95 ÷ /healthz.
  const refRows = pairs
    .filter(([o, r]) => o?.bare || r?.bare || o?.db || r?.db || o?.healthz || r?.healthz)
    .map(([o, r]) => {
      const any = (r ?? o)!;
      const ca = o ? refCells(o) : undefined;
      const cb = r ? refCells(r) : undefined;
      return [
        any.endpoint,
        String(any.c),
        ca?.rpsBare ?? '-',
        cb?.rpsBare ?? '-',
        ca?.dbP95 ?? '-',
        cb?.dbP95 ?? '-',
        ca?.p95Hz ?? '-',
        cb?.p95Hz ?? '-',
      ];
    });
  if (refRows.length) {
    console.log(
      `\nReferences (÷bare: req/s ÷ the bare route on the same SQL; db ms: the SQL's p95 in the\ndatabase, EXPLAIN ANALYZE; ÷hz: p95 ÷ /healthz p95 in the same window):\n`,
    );
    console.log(
      table(
        ['endpoint', 'c', '÷bare A', '÷bare B', 'db ms A', 'db ms B', '÷hz A', '÷hz B'],
        refRows,
        1,
      ),
    );
  }
  const errorRows = pairs.filter(([o, r]) => (o?.errors ?? 0) + (r?.errors ?? 0) > 0);
  if (errorRows.length) {
    console.log('\nErrors (A → B):');
    for (const [o, r] of errorRows) {
      const any = (r ?? o)!;
      console.log(`  ${any.endpoint} c=${any.c}: ${o ? o.errors : '-'} → ${r ? r.errors : '-'}`);
    }
  }
  const la = new Map(a.ladder.map((r) => [`${r.rung}@${r.c}`, r]));
  const lrows = b.ladder.map((r) => {
    const o = la.get(`${r.rung}@${r.c}`);
    return [r.rung, String(r.c), o ? fmt(o.rps) : '-', fmt(r.rps), o ? pct(o.rps, r.rps) : 'new'];
  });
  if (lrows.length)
    console.log(`\n${table(['ladder rung', 'c', 'req/s A', 'req/s B', 'Δ'], lrows, 1)}`);
}

// ---------------------------------------------------------------- the final report

/**
 * Step 5 of a run: prints the table, the ladder and the import figures, writes the JSON file
 * and answers the exit code (`exitCode`, or 1 on failing rows as today).
 */
export function printResults(
  results: Results,
  opts: { concurrency: number[]; startedAt: Date; exitCode: number },
): number {
  const { concurrency, startedAt } = opts;
  let exitCode = opts.exitCode;
  const { smoke, fill } = results;
  const duration = results.durationSeconds;
  const databaseName = results.machine.postgres;
  const say = (line: string) => console.log(line);
  // 5. The table, the ladder, the JSON.
  say(
    `\nResults (${duration} s per row, load generator on the same machine; errors = non-2xx answers):\n`,
  );
  say(
    table(
      ['endpoint', 'c', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors'],
      results.rows.map((r) => [
        r.endpoint,
        String(r.c),
        fmt(r.rps),
        ms(r.p50),
        ms(r.p95),
        ms(r.p99),
        String(r.errors),
      ]),
    ),
  );
  const withRefs = results.rows.filter((r) => r.healthz || r.bare || r.db);
  if (withRefs.length) {
    const load = withRefs.some((r) => r.dbLoadMs !== undefined);
    say(
      `\nReferences, measured in the same window (docs/benchmark.md): req/s and p95 of the row ÷ GET /healthz's;
the bare Fastify + pg route on the row's captured SQL and the row's req/s ÷ its (goal ≥ 0.6);
db p95: the row's SQL per request in the database (EXPLAIN ANALYZE of the captured samples)${load ? ";\ndb load: pg_stat_statements time per request under the row's load" : ''}:\n`,
    );
    const head = ['endpoint', 'c', 'req/s÷hz', 'p95÷hz', 'bare req/s', '÷bare', 'db p95'];
    if (load) head.push('db load');
    say(
      table(
        head,
        withRefs.map((r) => {
          const x = refCells(r);
          const cells = [r.endpoint, String(r.c), x.rpsHz, x.p95Hz, x.bareRps, x.rpsBare, x.dbP95];
          if (load) cells.push(x.dbLoad);
          return cells;
        }),
      ),
    );
  }
  if (results.ladder.length) {
    say('\nPoint-read ladder (req/s; ratio to the rung above, and to pgbench):\n');
    const rows: string[][] = [];
    for (const c of concurrency) {
      const rungs = results.ladder.filter((r) => r.c === c);
      rungs.forEach((r, i) => {
        const prev = rungs[i - 1];
        rows.push([
          r.rung,
          String(c),
          fmt(r.rps),
          r.p50 === undefined ? '-' : ms(r.p50),
          r.p95 === undefined ? '-' : ms(r.p95),
          prev ? `${fmt(r.rps / prev.rps, 2)}×` : '',
          i > 0 ? `${fmt(r.rps / rungs[0]!.rps, 2)}×` : '',
          r.note ?? '',
        ]);
      });
    }
    say(table(['rung', 'c', 'req/s', 'p50 ms', 'p95 ms', '÷ above', '÷ pgbench', 'note'], rows, 1));
  }

  if (results.import) {
    const f = results.import;
    const rate = (secs: number) => `${fmt(f.rows / secs, 0)} rows/s`;
    say(
      `\nCSV import (${f.rows.toLocaleString('en-US')} rows, ${fmt(f.upload / 1024 / 1024)} MB):\n`,
    );
    say(
      table(
        ['step', 'seconds', 'rate'],
        [
          ['check (dry run, rolled back)', fmt(f.checkSeconds, 2), rate(f.checkSeconds)],
          ['import (one transaction)', fmt(f.importSeconds, 2), rate(f.importSeconds)],
          [
            'check of the same file again',
            fmt(f.reimportCheckSeconds, 2),
            rate(f.reimportCheckSeconds),
          ],
          ['import of the same file again', fmt(f.reimportSeconds, 2), rate(f.reimportSeconds)],
          [
            `bulk approve of the ${f.bulkChanged.toLocaleString('en-US')} imported leads`,
            fmt(f.bulkSeconds, 2),
            `${fmt(f.bulkChanged / f.bulkSeconds, 0)} leads/s`,
          ],
        ],
      ),
    );
  }
  if (results.live) {
    const f = results.live;
    const mb = (n: number) => `${fmt(n, 0)} MB`;
    say(
      `\nLive streams (GET /api/v1/live) held while POST /api/v1/ingest/calls runs at c=${f.c}:\n`,
    );
    say(
      table(
        ['figure', 'value'],
        [
          ['streams open / asked', `${f.opened} / ${f.streams}`],
          ['users holding them; streams seeing the calls', `${f.users}; ${f.seeing}`],
          ['refused 429 / failed / ended early', `${f.refused} / ${f.failed} / ${f.endedEarly}`],
          ['opened in', `${fmt(f.openSeconds, 1)} s`],
          ['ingestion req/s, p99', `${fmt(f.ingestRps)}, ${ms(f.ingestP99)} ms`],
          [
            'calls posted / on every seeing stream / missed',
            `${f.calls} / ${f.seen} / ${f.missed}`,
          ],
          [
            'answer → event p50 / p95 / p99 / max',
            `${ms(f.p50Ms)} / ${ms(f.p95Ms)} / ${ms(f.p99Ms)} / ${ms(f.maxMs)} ms`,
          ],
          ...(f.rssMb
            ? [
                [
                  'portal RSS: before / streams open / after the load',
                  `${mb(f.rssMb.before)} / ${mb(f.rssMb.open)} / ${mb(f.rssMb.after)}`,
                ],
              ]
            : []),
        ],
      ),
    );
  }
  // A row fails on its own errors and on its references' (the bare route's replay, /healthz,
  // EXPLAIN of its SQL): a smoke run then exits 1, so the references cannot rot either.
  const failing = results.rows.filter(
    (r) =>
      r.errors > 0 ||
      r.requests === 0 ||
      (r.healthz?.errors ?? 0) > 0 ||
      (r.bare?.errors ?? 0) > 0 ||
      r.dbError !== undefined,
  );
  if (failing.length) {
    say(`\n${failing.length} row(s) had errors:`);
    for (const r of failing) {
      if (r.errors > 0 || r.requests === 0)
        say(`  ${r.endpoint} c=${r.c}: ${JSON.stringify(r.statuses)} ${r.firstError ?? ''}`);
      if (r.healthz?.errors)
        say(`  ${r.endpoint} c=${r.c}, its /healthz: ${r.healthz.firstError ?? ''}`);
      if (r.bare?.errors)
        say(`  ${r.endpoint} c=${r.c}, its bare route: ${r.bare.firstError ?? ''}`);
      if (r.dbError) say(`  ${r.endpoint} c=${r.c}, EXPLAIN of its SQL: ${r.dbError}`);
    }
  }
  if (smoke && failing.length > 0) exitCode = 1;
  if (results.rows.some((r) => r.serverErrors > 0)) exitCode = 1;

  const dir = path.join(root, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(
    dir,
    `${startedAt.toISOString().replace(/[:.]/g, '-')}${smoke ? '-smoke' : ''}${results.sizes === null ? '-pglite' : ''}.json`,
  );
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  say(
    `\nFill: ${fill.reused ? 'reused' : `${fmt(fill.seconds)} s`}. Results written to ${path.relative(process.cwd(), file)}`,
  );
  say(
    `Machine: ${results.machine.cpus} CPUs, load average at start ${results.machine.load.map((l) => fmt(l, 2)).join(' ')}, Node ${process.version}, ${databaseName}`,
  );
  if (smoke) say(exitCode === 0 ? 'Smoke run: every endpoint answered 2xx.' : 'Smoke run FAILED.');
  return exitCode;
}
