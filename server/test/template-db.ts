/**
 * A migrated template database, made once per test run (vitest's globalSetup) and copied by
 * every test file, instead of each file running initdb and all the migrations (measured on this
 * 2-core machine under load: 17.6 s to create and migrate a PGlite database, 1.8–2.9 s to load
 * the template's dump).
 *
 * - PGlite: the migrated data folder, dumped to `.tmp/test-template/pglite-<hash>.tar`.
 * - PostgreSQL (TEST_DATABASE_URL): a database `portal_test_tpl_<hash>`; each file's database is
 *   `CREATE DATABASE … TEMPLATE` it.
 *
 * <hash> is the migrations folder's content, so a changed or added migration makes a new
 * template. A test file still migrates its copy (a no-op when nothing is pending), and without
 * a template (a file run outside vitest's setup) it migrates from scratch.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { migrationsFolder, openPglite, openPostgres } from '../db/client.ts';

const root = path.resolve(import.meta.dirname, '../..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)],
    )
    .sort();
}

/** A short hash of every file of the migrations folder (names and contents). */
export function migrationsHash(): string {
  const h = createHash('sha256');
  for (const f of filesUnder(migrationsFolder)) {
    h.update(path.relative(migrationsFolder, f));
    h.update('\0');
    h.update(readFileSync(f));
    h.update('\0');
  }
  return h.digest('hex').slice(0, 16);
}

export function pgliteTemplatePath(hash = migrationsHash()): string {
  return path.join(root, '.tmp', 'test-template', `pglite-${hash}.tar`);
}

export function postgresTemplateName(hash = migrationsHash()): string {
  return `portal_test_tpl_${hash}`;
}

/** Makes the PGlite template file unless it exists (written aside, then renamed into place). */
export async function ensurePgliteTemplate(): Promise<string> {
  const file = pgliteTemplatePath();
  if (existsSync(file)) return file;
  mkdirSync(path.dirname(file), { recursive: true });
  const database = await openPglite(undefined);
  try {
    await database.migrate();
    const dump = await database.pglite!.dumpDataDir('none');
    const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(aside, Buffer.from(await dump.arrayBuffer()));
    renameSync(aside, file);
  } finally {
    await database.close();
  }
  return file;
}

/**
 * Makes the PostgreSQL template database unless it exists. Concurrent test runs (several
 * checkouts on one server) wait on an advisory lock; the template is migrated under a temporary
 * name and renamed when complete, so a crash never leaves a half-migrated template behind.
 */
export async function ensurePostgresTemplate(url: string): Promise<string> {
  const name = postgresTemplateName();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`select pg_advisory_lock(hashtext('portal test template'))`);
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return name;
    const building = `${name}_building`;
    await admin.query(`drop database if exists ${building} with (force)`);
    await admin.query(`create database ${building}`);
    const target = new URL(url);
    target.pathname = `/${building}`;
    const database = openPostgres(target.toString(), { max: 1 });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    await admin.query(`alter database ${building} rename to ${name}`);
    await admin.query(`alter database ${name} with is_template true`);
    return name;
  } finally {
    await admin
      .query(`select pg_advisory_unlock(hashtext('portal test template'))`)
      .catch(() => {});
    await admin.end();
  }
}
