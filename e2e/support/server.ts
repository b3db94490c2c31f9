import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { portalEnv } from '../../server/test/fault-support.ts';
import { type ThrowawayDatabase, throwawayDatabase } from '../../server/test/throwaway-db.ts';
import { pgdataTemplate } from './pgdata-template.ts';

const root = path.resolve(import.meta.dirname, '../..');

export const E2E_ADMIN = { email: 'admin@e2e.test', password: 'admin-e2e-password' };

export type RunningServer = {
  /** Origin the browser must use (also PUBLIC_URL, so e-mail links point here). */
  url: string;
  dataDir: string;
  /** The server's PostgreSQL database (TEST_DATABASE_URL runs), or '' on embedded PGlite. */
  databaseUrl: string;
  /** What the server printed so far; shown when start-up fails. */
  output: () => string;
  stop: () => Promise<void>;
};

/** A TCP port nobody listens on right now (never a fixed one). */
export async function freePort(host?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForReady(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`The server exited with ${child.exitCode} during start-up:\n${output()}`);
    }
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The server was not ready within 120 s:\n${output()}`);
}

/**
 * A private copy of dist/web for one server: another suite on the same machine may rebuild
 * dist/web meanwhile, and the server only serves the asset files it saw at start.
 */
function snapshotWebBuild(dataDir: string): string {
  const source = path.join(root, 'dist/web');
  const target = path.join(dataDir, 'web');
  for (let attempt = 1; ; attempt++) {
    try {
      if (!existsSync(path.join(source, 'index.html'))) {
        throw new Error('dist/web/index.html is missing: run `npm run build`');
      }
      rmSync(target, { recursive: true, force: true });
      cpSync(source, target, { recursive: true });
      if (existsSync(path.join(target, 'index.html'))) return target;
    } catch (err) {
      if (attempt >= 5) throw err;
    }
    // A rebuild is swapping folders right now; try again in a moment.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  }
}

/**
 * With TEST_DATABASE_URL set, a new PostgreSQL database for this server (dropped on stop);
 * otherwise none, and the server runs on embedded PGlite under its DATA_DIR.
 */
function createDatabase(): Promise<ThrowawayDatabase | null> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  return adminUrl ? throwawayDatabase(adminUrl, 'portal_e2e') : Promise.resolve(null);
}

/**
 * Starts the real server (`node --import tsx server/main.ts`) on a free port with a new
 * DATA_DIR: embedded PGlite from the migrated template (or a fresh PostgreSQL database when
 * TEST_DATABASE_URL is set), local files, dev mailbox. Extra env overrides the defaults.
 */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort('127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-e2e-'));
  const webRoot = snapshotWebBuild(dataDir);
  const database = await createDatabase();
  // Embedded PGlite starts from the migrated template (made by the global setup).
  const template = pgdataTemplate();
  if (!database && existsSync(template)) {
    cpSync(template, path.join(dataDir, 'pgdata'), { recursive: true });
  }
  const env: NodeJS.ProcessEnv = {
    ...portalEnv({
      port,
      dataDir,
      webRoot,
      admin: E2E_ADMIN,
      databaseUrl: database?.url ?? '',
      logLevel: 'warn',
      autoconfirm: false,
    }),
    ...extraEnv,
  };
  let log = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = () => log.slice(-8000);
  child.stdout?.on('data', (chunk) => {
    log += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    log += chunk;
  });

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  };

  try {
    await waitForReady(url, child, output);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, dataDir, databaseUrl: database?.url ?? '', output, stop };
}

/**
 * Adds another admin to a running server the way an operator does (`npm run create-admin`):
 * through the running portal on embedded PGlite, or straight into its PostgreSQL database.
 */
export async function createAdminViaCli(
  server: RunningServer,
  email: string,
  password: string,
): Promise<void> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/create-admin.ts', '--email', email, '--password', password],
    {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        DATA_DIR: server.dataDir,
        DATABASE_URL: server.databaseUrl,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout?.on('data', (c) => {
    out += c;
  });
  child.stderr?.on('data', (c) => {
    out += c;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`create-admin exited with ${code}:\n${out}`);
}
