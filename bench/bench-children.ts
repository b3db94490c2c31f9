// The bench's child processes and commands: a free port, the portal or the bare server started
// and awaited, pgbench found and run. Also the error the bench reports without a stack trace.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

/** A problem to report without a stack trace; thrown so the children are stopped first. */
export class BenchError extends Error {}

export function fail(message: string): never {
  throw new BenchError(message);
}

export async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export type Child = { url: string; stop: () => Promise<void> };

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
export async function stopProcess(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(t);
}

/**
 * The environment of a portal the benches start in production mode on `url`: its own data
 * folder, a fresh JWT secret, warnings only, and none of the machine's mail, Redis, S3 or
 * metrics settings (a .env of the checkout would otherwise reach it).
 */
export function benchPortalEnv(o: {
  port: number;
  url: string;
  dataDir: string;
  webRoot: string;
}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(o.port),
    HOST: '127.0.0.1',
    PUBLIC_URL: o.url,
    DATA_DIR: o.dataDir,
    WEB_ROOT: o.webRoot,
    JWT_SECRET: randomBytes(36).toString('base64url'),
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: '',
    ADMIN_PASSWORD: '',
    SMTP_URL: '',
    REDIS_URL: '',
    S3_BUCKET: '',
    S3_ENDPOINT: '',
    METRICS_PORT: '',
  };
}

/** Starts a node child process and waits until `ready(url)` answers. */
export async function startChild(
  script: string,
  env: NodeJS.ProcessEnv,
  url: string,
  readyPath: string,
  /** More node options before the script (a preloaded module). */
  nodeArgs: string[] = [],
): Promise<Child> {
  let log = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, script], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c) => {
    log = (log + c).slice(-8000);
  });
  child.stderr?.on('data', (c) => {
    log = (log + c).slice(-8000);
  });
  const stop = () => stopProcess(child, 15_000);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) fail(`${script} exited during start-up:\n${log}`);
    try {
      const res = await fetch(`${url}${readyPath}`);
      if (res.ok) return { url, stop };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  fail(`${script} was not ready within 120 s:\n${log}`);
}

export function findPgbench(): string | null {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((d) => /^\d+$/.test(d))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) {
    const p = path.join(base, v, 'bin/pgbench');
    if (existsSync(p)) return p;
  }
  return null;
}

export function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  return new Promise<{ code: number; out: string }>((resolve) => {
    execFile(cmd, args, { env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({
        code: err ? ((err as { code?: number }).code ?? 1) : 0,
        out: `${stdout}${stderr}`,
      });
    });
  });
}

/**
 * `npm run demo` into an embedded database under `dataDir` (development mode: the demo refuses
 * production); on failure removes the folder and fails with the end of the demo's output.
 */
export async function fillDemo(dataDir: string, demoArgs: string[]) {
  const demoScript = path.join(root, 'scripts/demo-data.ts');
  const demo = await run(process.execPath, ['--import', 'tsx', demoScript, ...demoArgs], {
    ...process.env,
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    S3_BUCKET: '',
  });
  if (demo.code !== 0) {
    rmSync(dataDir, { recursive: true, force: true });
    fail(`npm run demo failed:\n${demo.out.slice(-2000)}`);
  }
  return demo;
}
