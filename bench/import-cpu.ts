// CPU cost of the CSV import (issue 13, "Speed"): the service functions called directly against
// a filled bench database, with the PostgreSQL backend's own CPU (/proc/<pid>/stat, utime +
// stime) and Node's (process.cpuUsage()) read around each step. Wall time is printed too, but
// on a shared, busy machine only the CPU seconds compare between runs.
//
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/portal_bench_import \
//     node --import tsx bench/import-cpu.ts [--rows 100000] [--keep]
//
// The database must be on this machine (the backend's /proc entry is read). The fill is the
// bench's own (bench/fill.ts, reused when it is already there). The imported leads are deleted
// afterwards unless --keep is given.

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openPostgres } from '../server/db/client.ts';
import {
  createImport,
  getImport,
  runningImports,
  startCheck,
  startImport,
} from '../server/modules/leads/lead-imports.service.ts';
import { ACCOUNTS, FULL_SIZES, importCsv, prepareDatabase } from './fill.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    keep: { type: 'boolean', default: false },
    /** Logs every statement's plan (auto_explain, ANALYZE and BUFFERS) to the server log. */
    explain: { type: 'boolean', default: false },
  },
});
const rows = Number(values.rows);
const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('Set BENCH_DATABASE_URL to a bench database on this machine.');

await prepareDatabase(url, FULL_SIZES, (l) => console.log(l));

// One connection: every statement of the import runs on the same backend, whose CPU is read.
const database = openPostgres(url, { max: 1 });
const { db } = database;
const all = async <T>(q: ReturnType<typeof sql>) =>
  ((await db.execute(q)) as unknown as { rows: T[] }).rows;
const one = async <T>(q: ReturnType<typeof sql>) => (await all<T>(q))[0]!;

const ticks = Number(process.env.CLK_TCK ?? 100);
const backendCpu = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const after = f.slice(f.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 (utime, stime) are the 12th and 13th after the command name.
  return (Number(after[11]) + Number(after[12])) / ticks;
};

const { id: adminId } = await one<{ id: string }>(
  sql`select id from users where email = ${ACCOUNTS.admin}`,
);
const actor = { id: adminId, email: ACCOUNTS.admin };
const pubs = await all<{ id: string }>(
  sql`select id::text as id from users where role = 'publisher' and status = 'approved' order by created_at desc limit 50`,
);
const offers = await all<{ id: string }>(
  sql`select id::text as id from offers order by created_at desc limit 20`,
);

// The same file as `npm run bench -- --only "csv import"` (bench/bench-import.ts, benchImport).
const file = importCsv(rows, pubs, offers);
const run = file.run;
const csv = Buffer.from(file.csv);
const mapping = file.mapping;

const pid = (await one<{ pid: number }>(sql`select pg_backend_pid() as pid`)).pid;
if (values.explain) {
  await db.execute(sql`load 'auto_explain'`);
  await db.execute(sql`set auto_explain.log_min_duration = 0`);
  await db.execute(sql`set auto_explain.log_analyze = on`);
  await db.execute(sql`set auto_explain.log_buffers = on`);
  await db.execute(sql`set auto_explain.log_nested_statements = on`);
}
const measure = async <T>(name: string, step: () => Promise<T>): Promise<T> => {
  const pg0 = backendCpu(pid);
  const node0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await step();
  const wall = (performance.now() - t0) / 1000;
  const node = process.cpuUsage(node0);
  const pgCpu = backendCpu(pid) - pg0;
  const nodeCpu = (node.user + node.system) / 1e6;
  const total = pgCpu + nodeCpu;
  console.log(
    `${name.padEnd(26)} PostgreSQL ${pgCpu.toFixed(2).padStart(6)} s  Node ${nodeCpu.toFixed(2).padStart(5)} s  total ${total.toFixed(2).padStart(6)} s  → ${Math.round(
      rows / total,
    )
      .toLocaleString('en-US')
      .padStart(7)} rows/s on a quiet machine  wall ${wall.toFixed(1)} s`,
  );
  return out;
};
const settle = async () => {
  await Promise.all([...runningImports]);
};

const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`${rows} rows, ${(csv.length / 1e6).toFixed(1)} MB, load ${load}, backend ${pid}`);
try {
  for (const pass of ['first', 'again'] as const) {
    const made = await measure(`${pass}: upload`, () =>
      createImport({ db, actor, filename: `bench-import-${run}.csv`, data: csv }),
    );
    const checked = await measure(`${pass}: check (dry run)`, async () => {
      await startCheck({ db, actor, id: made.id, input: { mapping } });
      await settle();
      return getImport({ db, id: made.id });
    });
    if (checked.status !== 'checked') throw new Error(`check: ${checked.message}`);
    const done = await measure(`${pass}: import`, async () => {
      await startImport({ db, actor, id: made.id });
      await settle();
      return getImport({ db, id: made.id });
    });
    if (done.status !== 'imported') throw new Error(`import: ${done.message}`);
    console.log(
      `  check: ${checked.would_create} would be created, ${checked.would_update} updated, ${checked.unchanged} unchanged; import: ${done.created} created, ${done.updated} updated, ${done.unchanged} unchanged`,
    );
    if (pass === 'first') {
      await measure('fold of the report queue', () =>
        db.execute(sql`select fold_report_deltas(true)`),
      );
    }
  }
} finally {
  if (!values.keep) {
    const like = `bench-import-${run}-%`;
    await db.execute(
      sql`delete from audit_log where entity_type = 'lead' and entity_id in (select id::text from leads where external_call_id like ${like})`,
    );
    await db.execute(sql`delete from leads where external_call_id like ${like}`);
    await db.execute(sql`delete from lead_imports where filename like 'bench-import-%'`);
    await db.execute(sql`select fold_report_deltas(true)`);
  }
  await database.close();
}
