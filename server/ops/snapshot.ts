// A consistent snapshot of the database as a plain SQL dump, with the row count of every table
// and the applied migration, all from the same instant.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { migrationsFolder } from '../db/client.ts';

export type Migration = { applied: number; latest: string | null; hash: string | null };

export type Snapshot = {
  sql: string;
  /** "schema.table" → rows, for every table of the portal (public) and of drizzle. */
  counts: Record<string, number>;
  migration: Migration;
};

/** The same flags for PGlite's pg_dump and PostgreSQL's: portable plain SQL. */
export const DUMP_ARGS = ['--no-owner', '--no-privileges', '--inserts', '--rows-per-insert=500'];

export const TABLES_SQL = `select table_schema as schema, table_name as name
  from information_schema.tables
  where table_type = 'BASE TABLE' and table_schema in ('public', 'drizzle')
  order by 1, 2`;

const MIGRATION_SQL = `select count(*)::int as applied,
  (select hash from drizzle.__drizzle_migrations order by created_at desc, id desc limit 1) as hash,
  (select created_at from drizzle.__drizzle_migrations order by created_at desc, id desc limit 1)::text as created_at
  from drizzle.__drizzle_migrations`;

/** The journal tag (e.g. 0003_offers) of the migration applied last, by its timestamp. */
export function migrationInfo(
  row: { applied: number; hash: string | null; created_at: string | null } | null,
): Migration {
  if (!row) return { applied: 0, latest: null, hash: null };
  const journal = JSON.parse(readFileSync(`${migrationsFolder}/meta/_journal.json`, 'utf8')) as {
    entries: { when: number; tag: string }[];
  };
  const entry = journal.entries.find((e) => String(e.when) === row.created_at);
  return {
    applied: row.applied,
    latest: entry?.tag ?? (row.created_at ? `migration of ${row.created_at}` : null),
    hash: row.hash,
  };
}

/** pg_dump 17+ wraps its output in psql meta-commands that no SQL client understands. */
export function stripMetaCommands(sql: string): string {
  return sql.replace(/^\\(?:un)?restrict\b.*\r?\n?/gm, '');
}

/**
 * Embedded: copies the data folder under PGlite's query lock (an instant, like a crash image)
 * and dumps the copy in a worker thread, so the portal keeps serving meanwhile.
 */
export async function snapshotPglite(
  client: PGlite,
  onProgress: (line: string) => void = () => {},
): Promise<Snapshot> {
  onProgress('copying the embedded database');
  const image = await client.dumpDataDir('none');
  const tar = await image.arrayBuffer();
  onProgress(`copied ${(tar.byteLength / 1048576).toFixed(1)} MB; loading the copy`);
  const worker = new Worker(new URL('./pglite-dump-worker.mjs', import.meta.url), {
    workerData: {
      tar,
      args: DUMP_ARGS,
      countsSql: { tables: TABLES_SQL, migration: MIGRATION_SQL },
    },
    transferList: [tar],
  });
  try {
    const done = await new Promise<{
      sql: string;
      counts: Record<string, number>;
      migration: { applied: number; hash: string | null; created_at: string | null } | null;
    }>((resolve, reject) => {
      worker.on('message', (m) => {
        if (m.progress) onProgress(m.progress);
        else if (m.error) reject(new Error(`the SQL dump failed: ${m.error}`));
        else if (m.done) resolve(m.done);
      });
      worker.on('error', reject);
      worker.on('exit', (code) => reject(new Error(`the dump worker stopped (exit ${code})`)));
    });
    return {
      sql: stripMetaCommands(done.sql),
      counts: done.counts,
      migration: migrationInfo(done.migration),
    };
  } finally {
    await worker.terminate();
  }
}

/**
 * PostgreSQL: one REPEATABLE READ transaction exports its snapshot; the row counts are read in
 * it and pg_dump dumps exactly that snapshot (--snapshot).
 */
export async function snapshotPostgres(
  url: string,
  onProgress: (line: string) => void = () => {},
): Promise<Snapshot> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ id: string }>('select pg_export_snapshot() as id');
    const snapshotId = rows[0]!.id;
    onProgress('counting rows');
    const tables = await client.query<{ schema: string; name: string }>(TABLES_SQL);
    const counts: Record<string, number> = {};
    for (const t of tables.rows) {
      const r = await client.query<{ n: number }>(
        `select count(*)::int as n from "${t.schema}"."${t.name}"`,
      );
      counts[`${t.schema}.${t.name}`] = r.rows[0]!.n;
    }
    const migration = await client
      .query(MIGRATION_SQL)
      .then((r) => r.rows[0] ?? null)
      .catch(() => null);
    onProgress('writing the SQL dump (pg_dump)');
    const sql = await runPgDump(url, snapshotId, onProgress);
    await client.query('commit');
    return { sql: stripMetaCommands(sql), counts, migration: migrationInfo(migration) };
  } finally {
    await client.end().catch(() => {});
  }
}

function runPgDump(
  url: string,
  snapshotId: string,
  onProgress: (line: string) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('pg_dump', [...DUMP_ARGS, `--snapshot=${snapshotId}`, '--dbname', url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let bytes = 0;
    let reported = 0;
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out.push(d);
      bytes += d.length;
      if (bytes - reported > 16 * 1048576) {
        reported = bytes;
        onProgress(`dumped ${(bytes / 1048576).toFixed(0)} MB`);
      }
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', (e) =>
      reject(
        new Error(
          (e as NodeJS.ErrnoException).code === 'ENOENT'
            ? 'pg_dump was not found: install the PostgreSQL client tools (same major version as the server or newer).'
            : e.message,
        ),
      ),
    );
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`pg_dump failed: ${err.trim().split('\n').slice(-3).join(' ')}`));
    });
  });
}
