// `npm run restore -- FILE`: loads a backup into the configured, empty target (the embedded
// database under DATA_DIR, or the PostgreSQL database of DATABASE_URL) and its files into the
// configured storage. Everything is checked before anything becomes visible: the archive (gzip
// CRC, tar headers, the manifest's checksums), then the loaded row counts; a failure leaves
// the target as it was.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { pgliteOptions } from '../db/client.ts';
import { claimDataDir } from '../db/data-dir-owner.ts';
import { createLocalDriver } from '../storage/local.ts';
import { createS3Driver } from '../storage/s3.ts';
import { contentTypeOfKey } from '../storage/storage.ts';
import {
  DUMP_ENTRY,
  FILES_PREFIX,
  MANIFEST_ENTRY,
  MANIFEST_FORMAT,
  type Manifest,
  type OpsRun,
} from './backup.ts';
import { ArchiveError, extractTarGz } from './tar.ts';

/** Refused before anything was changed: the sentence says why and what to do. */
export class RestoreRefusedError extends Error {}

/** Whether a piece holds more than comment lines. */
function hasCode(piece: string): boolean {
  return piece.split('\n').some((line) => line.trim() !== '' && !line.trim().startsWith('--'));
}

/** Splits a SQL script into statements, respecting quotes, dollar quotes and comments. */
export function splitSql(sql: string): string[] {
  const out: string[] = [];
  let start = 0;
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      i++;
      while (i < n) {
        if (sql[i] === c) {
          if (sql[i + 1] === c) i += 2;
          else break;
        } else i++;
      }
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? n : nl + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (sql[i] === '/' && sql[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (sql[i] === '*' && sql[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
    } else if (c === '$') {
      const m = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i, i + 64));
      if (m) {
        const end = sql.indexOf(m[0], i + m[0].length);
        i = end < 0 ? n : end + m[0].length;
      } else i++;
    } else if (c === ';') {
      const stmt = sql.slice(start, i).trim();
      if (hasCode(stmt)) out.push(stmt);
      i++;
      start = i;
    } else i++;
  }
  const rest = sql.slice(start).trim();
  if (hasCode(rest)) out.push(rest);
  return out;
}

/**
 * The statements to run on a target: a dump from a newer PostgreSQL (PGlite is 18) sets
 * parameters an older server does not know (transaction_timeout); those SETs are left out.
 */
export function portableStatements(sql: string, knownSettings: Set<string>): string[] {
  return splitSql(sql).filter((s) => {
    const code = s
      .split('\n')
      .filter((line) => !line.trim().startsWith('--'))
      .join('\n')
      .trim();
    const m = /^SET\s+([a-z_.]+)\s*(=|\sTO\s)/i.exec(code);
    return !m || knownSettings.has(m[1]!.toLowerCase());
  });
}

/** Statements joined into batches of about 1 MB (one round trip each). */
function batches(statements: string[]): string[] {
  const out: string[] = [];
  let cur: string[] = [];
  let size = 0;
  for (const s of statements) {
    cur.push(s);
    size += s.length;
    if (size > 1_000_000) {
      out.push(`${cur.join(';\n')};`);
      cur = [];
      size = 0;
    }
  }
  if (cur.length) out.push(`${cur.join(';\n')};`);
  return out;
}

type Target = {
  description: string;
  /** Runs one batch of SQL. */
  exec(sql: string): Promise<void>;
  query<T>(sql: string): Promise<T[]>;
  /** Makes the load visible (commit / move into place). */
  commit(): Promise<void>;
  /** Throws the load away. */
  rollback(): Promise<void>;
};

async function hasTables(query: <T>(sql: string) => Promise<T[]>): Promise<boolean> {
  const rows = await query<{ n: number }>(
    `select count(*)::int as n from information_schema.tables
     where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE'`,
  );
  return rows[0]!.n > 0;
}

async function postgresTarget(url: string, force: boolean): Promise<Target> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const query = async <T>(sql: string) => (await client.query(sql)).rows as T[];
  try {
    await client.query('begin');
    if (await hasTables(query)) {
      if (!force) {
        throw new RestoreRefusedError(
          "The PostgreSQL database of DATABASE_URL already has the portal's tables. Restore into an empty database (createdb portal_new), or pass --force to replace its contents.",
        );
      }
      await client.query(
        'drop schema if exists drizzle cascade; drop schema if exists public cascade; create schema public',
      );
    }
  } catch (err) {
    await client.query('rollback').catch(() => {});
    await client.end();
    throw err;
  }
  const u = new URL(url);
  return {
    description: `PostgreSQL at ${u.hostname}:${u.port || 5432}${u.pathname}`,
    exec: async (sql) => {
      await client.query(sql);
    },
    query,
    commit: async () => {
      await client.query('commit');
      await client.end();
    },
    rollback: async () => {
      await client.query('rollback').catch(() => {});
      await client.end().catch(() => {});
    },
  };
}

async function nonEmptyDir(dir: string): Promise<boolean> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.some((n) => n !== '.tmp');
}

async function assertPgliteTargetEmpty(dataDir: string, force: boolean) {
  const pgdata = path.join(dataDir, 'pgdata');
  if ((await nonEmptyDir(pgdata)) && !force) {
    throw new RestoreRefusedError(
      `${pgdata} already holds a database. Restore into an empty DATA_DIR (e.g. DATA_DIR=./data-restored), or pass --force to move the current one aside.`,
    );
  }
}

async function pgliteTarget(dataDir: string, stamp: string): Promise<Target> {
  const pgdata = path.join(dataDir, 'pgdata');
  const staging = path.join(dataDir, `pgdata.restoring-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  const client = await PGlite.create(staging, pgliteOptions);
  const query = async <T>(sql: string) => (await client.query<T>(sql)).rows;
  return {
    description: `embedded PGlite at ${pgdata}`,
    exec: async (sql) => {
      await client.exec(sql);
    },
    query,
    commit: async () => {
      await client.close();
      if (existsSync(pgdata)) await rename(pgdata, `${pgdata}.before-restore-${stamp}`);
      await rename(staging, pgdata);
    },
    rollback: async () => {
      await client.close().catch(() => {});
      await rm(staging, { recursive: true, force: true });
    },
  };
}

export type RestoreResult = {
  target: string;
  tables: number;
  rows: number;
  files: { restored: number; bytes: number; leftInBucket: number };
  migration: Manifest['migration'];
  seconds: number;
  movedAside: string[];
};

function readManifest(dir: string): Manifest {
  const file = path.join(dir, MANIFEST_ENTRY);
  if (!existsSync(file))
    throw new ArchiveError('it has no manifest.json (truncated, or not a portal backup)');
  let m: Manifest;
  try {
    m = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch {
    throw new ArchiveError('its manifest.json is not valid JSON');
  }
  if (m.format !== MANIFEST_FORMAT || m.formatVersion !== 1) {
    throw new ArchiveError('its manifest.json is not a portal backup manifest');
  }
  return m;
}

/** Restores `file` into the target the config names. */
export async function restoreBackup(
  opts: OpsRun & { file: string; force?: boolean },
): Promise<RestoreResult> {
  const { config, force = false } = opts;
  const progress = opts.onProgress ?? (() => {});
  const started = performance.now();
  const file = path.resolve(opts.file);
  if (!existsSync(file)) throw new RestoreRefusedError(`${file} does not exist.`);
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

  // The embedded target is taken for this process: no portal may start on it meanwhile.
  const owner = config.databaseUrl ? null : await claimDataDir(config.dataDir);
  const work = path.join(config.dataDir, `.restore-${process.pid}`);
  let target: Target | null = null;
  const committed: string[] = [];
  const storageRoot = path.join(config.dataDir, 'storage');
  const driver = config.s3
    ? createS3Driver(config.s3, path.join(config.dataDir, 'tmp', 'uploads'))
    : createLocalDriver(storageRoot);
  const movedAside: string[] = [];
  try {
    // The target must be empty (or --force): checked first, before reading the archive.
    if (config.databaseUrl) target = await postgresTarget(config.databaseUrl, force);
    else await assertPgliteTargetEmpty(config.dataDir, force);
    // 1. The archive, completely, before touching the target.
    progress(`reading ${path.basename(file)}`);
    await rm(work, { recursive: true, force: true });
    let entries: Awaited<ReturnType<typeof extractTarGz>>;
    try {
      entries = await extractTarGz(file, work);
    } catch (err) {
      if (err instanceof ArchiveError) {
        throw new RestoreRefusedError(
          `${file} is damaged or incomplete: ${err.message}. Nothing was restored.`,
        );
      }
      throw err;
    }
    let manifest: Manifest;
    try {
      manifest = readManifest(work);
    } catch (err) {
      throw new RestoreRefusedError(
        `${file} cannot be restored: ${(err as Error).message}. Nothing was restored.`,
      );
    }
    const byName = new Map(entries.map((e) => [e.name, e]));
    const dumpEntry = byName.get(DUMP_ENTRY);
    if (!dumpEntry || dumpEntry.sha256 !== manifest.database.sha256) {
      throw new RestoreRefusedError(
        `${file} is damaged: database.sql ${dumpEntry ? 'does not match its checksum in the manifest' : 'is missing'}. Nothing was restored.`,
      );
    }
    if (manifest.files.included) {
      for (const f of manifest.files.list) {
        const e = byName.get(`${FILES_PREFIX}${f.key}`);
        if (!e || e.sha256 !== f.sha256 || e.size !== f.bytes) {
          throw new RestoreRefusedError(
            `${file} is damaged: the stored file ${f.key} ${e ? 'does not match its checksum' : 'is missing'}. Nothing was restored.`,
          );
        }
      }
    }
    // Files already in the storage with the same content are kept (the move to PostgreSQL with
    // the same DATA_DIR); a different file under the same name is refused unless --force.
    // Its own S3 client: a bucket answering 404s may close kept-alive connections, which must
    // not be the ones the uploads below reuse (a streamed upload cannot be retried).
    const checker = config.s3
      ? createS3Driver(config.s3, path.join(config.dataDir, 'tmp', 'uploads'))
      : driver;
    const already = new Set<string>();
    const differing: string[] = [];
    if (manifest.files.included) {
      for (const f of manifest.files.list) {
        // stat first: most keys are missing, and a HEAD answers that without a body.
        if (!(await checker.stat(f.key))) continue;
        const existing = await checker.open(f.key);
        if (!existing) continue;
        const hash = createHash('sha256');
        for await (const chunk of existing.stream as AsyncIterable<Buffer>) hash.update(chunk);
        if (hash.digest('hex') === f.sha256) already.add(f.key);
        else differing.push(f.key);
      }
    }
    if (differing.length && !force) {
      throw new RestoreRefusedError(
        `${differing.length} stored file(s) differ from the backup's (e.g. ${differing[0]}) in ${config.s3 ? `S3 bucket ${config.s3.bucket}` : storageRoot}. Restore into an empty DATA_DIR, or pass --force to replace them. Nothing was restored.`,
      );
    }
    progress(
      `archive checked: ${manifest.database.bytes.toLocaleString('en-US')} bytes of SQL, ${manifest.files.count} files; backup of ${manifest.createdAt}`,
    );

    // 2. The database, in a transaction (PostgreSQL) or a staging folder (embedded).
    target ??= await pgliteTarget(config.dataDir, stamp);
    const known = new Set(
      (await target.query<{ name: string }>('select name from pg_settings')).map((r) => r.name),
    );
    const sql = readFileSync(dumpEntry.file, 'utf8');
    const parts = batches(portableStatements(sql, known));
    let lastReport = performance.now();
    for (const [i, part] of parts.entries()) {
      try {
        await target.exec(part);
      } catch (err) {
        throw new RestoreRefusedError(
          `Loading the database failed (${(err as Error).message}). Nothing was restored.`,
        );
      }
      if (performance.now() - lastReport > 2000) {
        lastReport = performance.now();
        progress(`database: ${Math.round(((i + 1) / parts.length) * 100)}% loaded`);
      }
    }
    await target.exec('reset search_path');
    let rows = 0;
    for (const [table, expected] of Object.entries(manifest.database.tables)) {
      const [schema, name] = table.split('.');
      const got = await target
        .query<{ n: number }>(`select count(*)::int as n from "${schema}"."${name}"`)
        .then((r) => r[0]!.n)
        .catch(() => -1);
      if (got !== expected) {
        throw new RestoreRefusedError(
          `After loading, ${table} has ${got < 0 ? 'no table' : `${got} rows`} but the manifest says ${expected}. Nothing was restored.`,
        );
      }
      rows += got;
    }
    progress(
      `database loaded: ${Object.keys(manifest.database.tables).length} tables, ${rows} rows, counts as in the manifest`,
    );

    // 3. The files, into the configured storage, each read back and checked.
    let bytes = 0;
    if (manifest.files.included) {
      for (const [i, f] of manifest.files.list.entries()) {
        const e = byName.get(`${FILES_PREFIX}${f.key}`)!;
        if (!already.has(f.key)) {
          await driver.commit(e.file, f.key, {
            size: f.bytes,
            contentType: contentTypeOfKey(f.key),
          });
          if (!differing.includes(f.key)) committed.push(f.key);
        }
        const opened = await driver.open(f.key);
        const hash = createHash('sha256');
        if (opened)
          for await (const chunk of opened.stream as AsyncIterable<Buffer>) hash.update(chunk);
        if (!opened || hash.digest('hex') !== f.sha256) {
          throw new RestoreRefusedError(
            `The file ${f.key} does not read back as it was backed up. Nothing was restored.`,
          );
        }
        bytes += f.bytes;
        if (performance.now() - lastReport > 2000) {
          lastReport = performance.now();
          progress(`files: ${i + 1} of ${manifest.files.count}`);
        }
      }
    }

    // 4. Visible at once.
    if (!config.databaseUrl && existsSync(path.join(config.dataDir, 'pgdata'))) {
      movedAside.push(path.join(config.dataDir, `pgdata.before-restore-${stamp}`));
    }
    await target.commit();
    target = null;
    return {
      target: config.databaseUrl
        ? 'PostgreSQL (DATABASE_URL)'
        : `embedded PGlite at ${path.join(config.dataDir, 'pgdata')}`,
      tables: Object.keys(manifest.database.tables).length,
      rows,
      files: {
        restored: manifest.files.included ? manifest.files.count : 0,
        bytes,
        leftInBucket: manifest.files.included ? 0 : manifest.files.count,
      },
      migration: manifest.migration,
      seconds: (performance.now() - started) / 1000,
      movedAside,
    };
  } catch (err) {
    if (target) await target.rollback();
    for (const key of committed) await driver.remove(key).catch(() => {});
    throw err;
  } finally {
    await rm(work, { recursive: true, force: true });
    await owner?.release();
  }
}
