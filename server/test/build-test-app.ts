import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type AppDeps, buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { type Database, openPglite, openPostgres } from '../db/client.ts';
import { ensureSettings } from '../db/settings.ts';
import { pgliteTemplatePath, postgresTemplateName } from './template-db.ts';

export type TestApp = {
  app: FastifyInstance;
  config: Config;
  database: Database;
  db: Database['db'];
  close(): Promise<void>;
};

/**
 * A freshly migrated database for one test file: in-memory PGlite, or, when TEST_DATABASE_URL
 * is set, a new PostgreSQL database that is dropped again on close. Both are copies of the
 * run's migrated template (server/test/template-db.ts) when it exists.
 */
export async function createTestDatabase(): Promise<{ database: Database; drop(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const template = pgliteTemplatePath();
    const database = await openPglite(undefined, {
      loadDataDir: existsSync(template) ? new Blob([readFileSync(template)]) : undefined,
    });
    await database.migrate();
    return { database, drop: async () => {} };
  }
  const name = `portal_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const template = postgresTemplateName();
  const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [
    template,
  ]);
  await admin.query(`create database ${name}${rowCount ? ` template ${template}` : ''}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = openPostgres(target.toString(), { max: 5 });
  await database.migrate();
  return {
    database,
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * The whole app of `config` on `database`, as the tests run it: no request log, and a web root
 * that does not exist (a folder of its DATA_DIR), so no web build is served.
 */
export const appOn = (config: Config, database: Database, deps?: Partial<AppDeps>) =>
  buildApp({
    config,
    database,
    logger: false,
    webRoot: path.join(config.dataDir, 'no-web'),
    ...deps,
  });

/** Builds the whole app on a fresh database and a temporary DATA_DIR. */
export async function buildTestApp(
  opts: { env?: Record<string, string>; deps?: Partial<AppDeps> } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    ...opts.env,
  });
  const { database, drop } = await createTestDatabase();
  await ensureSettings(database.db);
  const app = await appOn(config, database, opts.deps);
  await app.ready();
  return {
    app,
    config,
    database,
    db: database.db,
    close: async () => {
      await app.close();
      await database.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The file's test app (buildTestApp) and what `setup` makes on it (users, their tokens, ids),
 * made in a beforeAll and closed in an afterAll. The object is filled in when that beforeAll has
 * run: use it inside tests and hooks.
 */
export function fileTestApp<T extends object = object>(
  setup?: (t: TestApp) => Promise<T>,
): TestApp & T {
  const ctx = {} as TestApp & T;
  beforeAll(async () => {
    const t = await buildTestApp();
    Object.assign(ctx, t, setup && (await setup(t)));
  });
  afterAll(() => ctx.close());
  return ctx;
}
