import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { DEFAULT_POOL_MAX } from '../config.ts';
import { claimDataDir, type DataDirOwner } from './data-dir-owner.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The one database type the services see, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle has the same query surface. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Where the data lives, for the start-up banner. */
  description: string;
  migrate(): Promise<void>;
  /**
   * Runs the start-up steps (migrations, the settings row, the first admin) with no other
   * instance doing the same at once. PostgreSQL: under a session advisory lock, so instances
   * started together on an empty database wait for each other, and a process that dies mid-way
   * releases the lock with its connection. PGlite: one process per folder already.
   */
  underStartupLock<T>(steps: () => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  /**
   * Calls `onNotify` on each NOTIFY of `channel` (at the notifying transaction's commit);
   * answers how to stop. PostgreSQL: one connection of its own, opened again after a loss
   * (notifications sent meanwhile are missed: a listener must also poll). PGlite: in process.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** Embedded on disk: this process's hold on DATA_DIR (released by close). */
  owner?: DataDirOwner;
  /** Embedded: the PGlite instance itself (backups dump it). */
  pglite?: PGlite;
};

export const migrationsFolder = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../drizzle',
);

/** The advisory lock key of start-up (migrations, settings row, first admin): any fixed bigint. */
export const STARTUP_LOCK_KEY = '7237152360113457921';

/** How long an idle pooled connection stays open (five minutes). */
export const IDLE_CONNECTION_MS = 300_000;

/**
 * PostgreSQL through a pg pool (DATABASE_URL).
 *
 * When PostgreSQL ends a connection (pg_terminate_backend, a restart, a crash), node-postgres
 * emits `error` on that client. The pool listens on idle clients only; a client checked out for
 * a transaction has no listener, and an unheard `error` event ends the process. So every client
 * gets its own listener as soon as it connects: the query in flight fails (its request answers
 * 503), the pool drops the broken client on release, and the next request opens a fresh one.
 */
export function openPostgres(url: string, opts: { max?: number } = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    // DB_POOL_MAX (server/config.ts); its default was chosen by measurement.
    max: opts.max ?? DEFAULT_POOL_MAX,
    // A database that does not answer must not hold requests forever: they answer 503 instead.
    connectionTimeoutMillis: 10_000,
    // Connections stay open between bursts (pg-pool closes an idle one after 10 s by default):
    // a new one costs a backend's start and its first calls' planning and function compiles.
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    // Dead peers (a host that vanished without closing the socket) are noticed by TCP keepalive.
    keepAlive: true,
  });
  // The failed query reports the error to its request (503); the event itself needs no action.
  const ignore = () => {};
  pool.on('connect', (client) => {
    client.on('error', ignore);
  });
  // A broken idle client is dropped by the pool.
  pool.on('error', ignore);
  // numeric stays a string (exact money); bigint count(*) becomes a number.
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  const u = new URL(url);
  return {
    db,
    kind: 'postgres',
    description: `PostgreSQL at ${u.hostname}:${u.port || 5432}/${u.pathname.slice(1)}`,
    migrate: () => migratePg(db as never, { migrationsFolder }),
    underStartupLock: async (steps) => {
      // The lock lives on one connection of its own; the steps use the pool as usual.
      const holder = await pool.connect();
      try {
        await holder.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
        try {
          return await steps();
        } finally {
          await holder.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]);
        }
      } finally {
        holder.release();
      }
    },
    ping: async () => {
      await pool.query('select 1');
    },
    listen: async (channel, onNotify) => listenPg(url, channel, onNotify),
    close: () => pool.end(),
  };
}

/** LISTEN on a connection of its own, opened again (after a second) when it is lost. */
async function listenPg(url: string, channel: string, onNotify: () => void) {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const open = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url, keepAlive: true });
    const again = () => {
      if (stopped || client !== c) return;
      client = undefined;
      void c.end().catch(() => {});
      retry = setTimeout(() => void open().catch(() => {}), 1000);
    };
    client = c;
    c.on('error', again);
    c.on('end', again);
    c.on('notification', (n) => {
      if (n.channel === channel) onNotify();
    });
    try {
      await c.connect();
      await c.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      again();
      throw err;
    }
  };
  await open();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}

/**
 * The extensions the migrations use (PGlite loads them only when asked): pg_trgm for the
 * user search's trigram indexes (drizzle/0008).
 */
export const pgliteOptions = { extensions: { pg_trgm } };

/**
 * Embedded PostgreSQL (PGlite): in memory when dir is undefined, else on disk; `loadDataDir`
 * starts it from a dumped data folder (the tests' migrated template).
 */
export async function openPglite(
  dir: string | undefined,
  opts: { loadDataDir?: Blob } = {},
): Promise<Database> {
  if (dir) mkdirSync(dir, { recursive: true });
  const options = {
    ...pgliteOptions,
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
  };
  const client = dir ? await PGlite.create(dir, options) : await PGlite.create(options);
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    description: dir ? `embedded PGlite at ${dir}` : 'embedded PGlite (in memory)',
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    underStartupLock: (steps) => steps(),
    ping: async () => {
      await client.query('select 1');
    },
    listen: async (channel, onNotify) => {
      const off = await client.listen(channel, onNotify);
      return async () => {
        if (!client.closed) await off();
      };
    },
    close: () => client.close(),
    pglite: client,
  };
}

/**
 * The database the config asks for: PostgreSQL when DATABASE_URL is set, else PGlite under
 * DATA_DIR, after taking the folder for this process (DataDirBusyError when another process
 * holds it; nothing is written then).
 */
export async function openDatabase(cfg: {
  databaseUrl: string | undefined;
  databasePoolMax?: number;
  dataDir: string;
}): Promise<Database> {
  if (cfg.databaseUrl) return openPostgres(cfg.databaseUrl, { max: cfg.databasePoolMax });
  const owner = await claimDataDir(cfg.dataDir);
  let database: Database;
  try {
    database = await openPglite(path.join(cfg.dataDir, 'pgdata'));
  } catch (err) {
    await owner.release();
    throw err;
  }
  return {
    ...database,
    owner,
    close: async () => {
      try {
        await database.close();
      } finally {
        await owner.release();
      }
    },
  };
}

/** Raw SQL answered as plain rows on both drivers (pg and PGlite both answer `rows`). */
export async function rowsOf<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}
