import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { expect } from 'vitest';
import { freePort } from './free-port.ts';

/**
 * Support for the fault tests (issue 11): a throwaway PostgreSQL cluster the test owns (never the
 * shared one on 5432), the real portal as a child process, and a write load whose acknowledged
 * writes can be counted afterwards.
 */

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The newest /usr/lib/postgresql/<version>/bin holding initdb and pg_ctl; throws without one. */
export function postgresBinDir(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(path.join(base, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0] || !existsSync(path.join(base, versions[0], 'bin', 'pg_ctl'))) {
    throw new Error(
      'The fault tests need the PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/<version>/bin; install the postgresql package.',
    );
  }
  return path.join(base, versions[0], 'bin');
}

export type Cluster = {
  url: string;
  port: number;
  /** Ends every client connection to the portal's database (as an operator or the OOM killer would). */
  terminateBackends(): Promise<number>;
  /** `pg_ctl restart -m fast`. */
  restart(): Promise<void>;
  /** `pg_ctl stop -m immediate` (a crash: no checkpoint, recovery from WAL at the next start). */
  crash(): Promise<void>;
  start(): Promise<void>;
  query<T extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  destroy(): Promise<void>;
};

/**
 * initdb + pg_ctl start on a free port in a temp folder. Tests run as root in CI, and PostgreSQL
 * refuses to run as root, so then the binaries run as the `postgres` OS user (runuser).
 */
export async function startCluster(): Promise<Cluster> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-pgfault-'));
  const data = path.join(dir, 'data');
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const pgRun = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args], { timeout: 90_000 })
      : run(path.join(bin, tool), args, { timeout: 90_000 });
  const port = await freePort();
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c max_connections=60 -c fsync=off`;
  const log = path.join(dir, 'log');
  await pgRun('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const start = async () => {
    await pgRun('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', options, 'start']);
  };
  await start();
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const query = async <T extends pg.QueryResultRow>(sql: string, params?: unknown[]) => {
    const c = new pg.Client({ connectionString: adminUrl });
    c.on('error', () => {});
    await c.connect();
    try {
      return (await c.query<T>(sql, params as unknown[])).rows;
    } finally {
      await c.end().catch(() => {});
    }
  };
  await query('create database portal');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/portal`,
    port,
    query,
    terminateBackends: async () => {
      const rows = await query<{ ok: boolean }>(
        `select pg_terminate_backend(pid) as ok from pg_stat_activity
          where datname = 'portal' and pid <> pg_backend_pid()`,
      );
      return rows.filter((r) => r.ok).length;
    },
    restart: async () => {
      await pgRun('pg_ctl', [
        '-D',
        data,
        '-l',
        log,
        '-w',
        '-t',
        '60',
        '-m',
        'fast',
        '-o',
        options,
        'restart',
      ]);
    },
    crash: async () => {
      await pgRun('pg_ctl', ['-D', data, '-w', '-t', '60', '-m', 'immediate', 'stop']);
    },
    start,
    destroy: async () => {
      await pgRun('pg_ctl', ['-D', data, '-w', '-t', '30', '-m', 'immediate', 'stop']).catch(
        () => {},
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const FAULT_ADMIN = { email: 'admin@faults.test', password: 'faults-admin-password' };

/**
 * A child portal's env leaves mail, Redis and S3 unset (the in-process and DATA_DIR stand-ins)
 * and lets it make its own JWT secret.
 */
export const NO_OUTSIDE_SERVICES = {
  SMTP_URL: '',
  REDIS_URL: '',
  S3_BUCKET: '',
  S3_ENDPOINT: '',
  S3_ACCESS_KEY_ID: '',
  S3_SECRET_ACCESS_KEY: '',
  JWT_SECRET: '',
};

export type Portal = {
  url: string;
  child: ChildProcess;
  output(): string;
  /** True while the process runs. */
  alive(): boolean;
  kill(signal: NodeJS.Signals): Promise<void>;
};

/**
 * The real portal (`node --import tsx server/main.ts`) on a free port, like production: PGlite
 * under dataDir, or PostgreSQL at databaseUrl. Resolves once /readyz answers.
 */
/**
 * The environment of a portal started as a child process (`node --import tsx server/main.ts`)
 * on 127.0.0.1:`port` (PUBLIC_URL http://127.0.0.1:<port>): its first admin, data, database and web build, and
 * nothing from the outer environment that could point it at outside services.
 */
export function portalEnv(o: {
  port: number;
  dataDir: string;
  webRoot: string;
  admin: { email: string; password: string };
  /** '' for embedded PGlite under dataDir. */
  databaseUrl: string;
  logLevel: string;
  autoconfirm: boolean;
}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(o.port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${o.port}`,
    DATA_DIR: o.dataDir,
    WEB_ROOT: o.webRoot,
    ADMIN_EMAIL: o.admin.email,
    ADMIN_PASSWORD: o.admin.password,
    LOG_LEVEL: o.logLevel,
    DATABASE_URL: o.databaseUrl,
    ...NO_OUTSIDE_SERVICES,
    AUTH_AUTOCONFIRM: String(o.autoconfirm),
    TRUST_PROXY: 'false',
    // Tests stop portals with SIGTERM: no balancer to drain for (server/ops/several-instances.test.ts has one).
    SHUTDOWN_DRAIN_SECONDS: '0',
  };
}

export async function startPortal(opts: {
  dataDir: string;
  databaseUrl?: string;
  /** A fixed port (a balancer's backend); default a free one. */
  port?: number;
  /** Overrides of the environment below. */
  env?: NodeJS.ProcessEnv;
  /** How long start-up may take (default 120 s). */
  readyTimeoutMs?: number;
}): Promise<Portal> {
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...portalEnv({
      port,
      dataDir: opts.dataDir,
      webRoot: path.join(opts.dataDir, 'no-web'),
      admin: FAULT_ADMIN,
      databaseUrl: opts.databaseUrl ?? '',
      logLevel: 'error',
      autoconfirm: true,
    }),
    ...opts.env,
  };
  let log = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c) => {
    log += c;
  });
  child.stderr?.on('data', (c) => {
    log += c;
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  const kill = async (signal: NodeJS.Signals) => {
    if (!alive()) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await exited;
  };
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 120_000);
  for (;;) {
    if (!alive()) throw new Error(`The portal exited during start-up:\n${log.slice(-4000)}`);
    if (Date.now() > deadline) {
      await kill('SIGKILL');
      throw new Error(
        `The portal was not ready within ${(opts.readyTimeoutMs ?? 120_000) / 1000} s:\n${log.slice(-4000)}`,
      );
    }
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    await sleep(200);
  }
  return { url, child, output: () => log.slice(-8000), alive, kill };
}

/** The process (among pids) owning the local TCP port, read from /proc (Linux). */
export function pidOfLocalPort(port: number, pids: number[]): number | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[1]?.endsWith(`:${hex}`)) inodes.add(cols[9]!);
    }
  }
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m && inodes.has(m[1]!)) return pid;
      } catch {
        /* closed meanwhile */
      }
    }
  }
  return undefined;
}

export function tempDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'portal-fault-data-'));
}

type Answer = { status: number | 'network'; retryAfter: string | null; body: string };

async function send(url: string, init: RequestInit): Promise<Answer> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(20_000) });
    return {
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body: await res.text(),
    };
  } catch (err) {
    return { status: 'network', retryAfter: null, body: String(err) };
  }
}

/** Signs in as the fault admin, creates and approves one publisher to pay. */
export async function setUpPayee(url: string): Promise<{ token: string; publisherId: string }> {
  const json = { 'content-type': 'application/json' };
  const signIn = await fetch(`${url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(FAULT_ADMIN),
  });
  if (!signIn.ok) throw new Error(`admin sign-in failed: ${signIn.status} ${await signIn.text()}`);
  const token = ((await signIn.json()) as { access_token: string }).access_token;
  const signUp = await fetch(`${url}/auth/v1/signup`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      email: `payee-${randomBytes(4).toString('hex')}@faults.test`,
      password: 'payee-password-1',
      data: {
        full_legal_name: 'Fault Payee',
        business_legal_name: 'Payee LLC',
        address: '1 Main St',
        phone_number: '+15550000000',
        whatsapp_number: '+15550000000',
        ms_teams_id: 'payee',
      },
    }),
  });
  if (!signUp.ok)
    throw new Error(`publisher sign-up failed: ${signUp.status} ${await signUp.text()}`);
  const body = (await signUp.json()) as { id?: string; user?: { id: string } };
  const publisherId = body.user?.id ?? body.id!;
  const approve = await fetch(`${url}/api/v1/admin/publishers/${publisherId}`, {
    method: 'PATCH',
    headers: { ...json, authorization: `Bearer ${token}` },
    body: JSON.stringify({ status: 'approved' }),
  });
  if (!approve.ok) throw new Error(`approval failed: ${approve.status} ${await approve.text()}`);
  return { token, publisherId };
}

export type LoadReport = {
  /** Every note of this load starts with it. */
  prefix: string;
  /** Payout notes the portal answered 201 for. */
  acknowledged: Set<string>;
  /** Every payout note sent at least once. */
  attempted: Set<string>;
  /** Notes of writers that sent an Idempotency-Key and retried until acknowledged. */
  keyed: Set<string>;
  statuses: Map<string, number>;
  /** 503 answers without Retry-After, 5xx other than 503, 4xx: what must never happen. */
  unexpected: string[];
};

/**
 * `concurrency` writers recording 1.00 payouts, each with a unique note, until stop() says so.
 * Even writers send an Idempotency-Key (the note) and retry one write until acknowledged (as a
 * client that must not lose a payment does); odd writers try each write once.
 */
export function writeLoad(opts: {
  url: () => string;
  token: string;
  publisherId: string;
  concurrency: number;
  stop: () => boolean;
  /** Keyed writers give up on a write after this long (the portal never came back). */
  retryForMs?: number;
}) {
  const runId = randomBytes(3).toString('hex');
  const report: LoadReport = {
    prefix: `fault-${runId}-`,
    acknowledged: new Set(),
    attempted: new Set(),
    keyed: new Set(),
    statuses: new Map(),
    unexpected: [],
  };
  const post = (note: string, key?: string) =>
    send(`${opts.url()}/api/v1/admin/payouts`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${opts.token}`,
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: JSON.stringify({ publisher_id: opts.publisherId, amount: 1, notes: note }),
    });
  const note = (a: Answer) => {
    const k = String(a.status);
    report.statuses.set(k, (report.statuses.get(k) ?? 0) + 1);
    const fine =
      a.status === 201 ||
      a.status === 'network' ||
      (a.status === 503 && a.retryAfter !== null) ||
      (a.status === 409 && a.body.includes('idempotency_key_in_use'));
    if (!fine) report.unexpected.push(`${a.status} ${a.body.slice(0, 300)}`);
  };
  const writer = async (w: number) => {
    const keyed = w % 2 === 0;
    for (let n = 0; !opts.stop(); n++) {
      const id = `${report.prefix}w${w}-${n}`;
      report.attempted.add(id);
      if (!keyed) {
        const a = await post(id);
        note(a);
        if (a.status === 201) report.acknowledged.add(id);
        else await sleep(100);
        continue;
      }
      report.keyed.add(id);
      const giveUp = Date.now() + (opts.retryForMs ?? 60_000);
      for (;;) {
        const a = await post(id, id);
        note(a);
        if (a.status === 201) {
          report.acknowledged.add(id);
          break;
        }
        if (
          Date.now() > giveUp ||
          (a.status !== 'network' && a.status !== 503 && a.status !== 409)
        ) {
          break;
        }
        await sleep(150);
      }
    }
  };
  const done = Promise.all(Array.from({ length: opts.concurrency }, (_, w) => writer(w)));
  return { report, done };
}

/** How many payouts the portal lists per note, for this publisher (all pages). */
export async function payoutsByNote(
  url: string,
  token: string,
  publisherId: string,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let page = 1; ; page++) {
    const res = await fetch(
      `${url}/api/v1/admin/payouts?publisher_id=${publisherId}&page_size=200&page=${page}`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    if (!res.ok) throw new Error(`listing payouts failed: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { items: { notes: string | null }[]; total: number };
    for (const p of body.items) counts.set(p.notes ?? '', (counts.get(p.notes ?? '') ?? 0) + 1);
    if (page * 200 >= body.total) break;
  }
  return counts;
}

/** Lost: acknowledged but absent. Duplicated: present more than once. Phantom: never sent. */
export function checkExactlyOnce(report: LoadReport, all: Map<string, number>) {
  const counts = new Map([...all].filter(([n]) => n.startsWith(report.prefix)));
  const lost = [...report.acknowledged].filter((n) => !counts.has(n));
  const duplicated = [...counts].filter(([, c]) => c > 1).map(([n]) => n);
  const phantom = [...counts.keys()].filter((n) => !report.attempted.has(n));
  return { lost, duplicated, phantom };
}

/**
 * SIGKILLs the portal under the load of ten concurrent writers, then `restart`s it on the same
 * data and lets the load run `settleMs` more: every acknowledged write is there exactly once, and
 * the load really ran on both sides of the kill. Returns the restarted portal.
 */
export async function killUnderLoad(opts: {
  /** The start of the log line, e.g. `[db-faults] SIGKILL on PostgreSQL`. */
  label: string;
  portal: Portal;
  token: string;
  publisherId: string;
  restart: () => Promise<Portal>;
  settleMs: number;
}): Promise<Portal> {
  const { token, publisherId } = opts;
  let stop = false;
  let current = opts.portal;
  const { report, done } = writeLoad({
    url: () => current.url,
    token,
    publisherId,
    concurrency: 10,
    stop: () => stop,
  });
  let ackedBeforeKill = 0;
  try {
    // At least 2 s of load, and the kill waits for the first acknowledged writes: on a slow
    // machine the embedded database's first writes can take longer than that (CI saw 0 acks
    // after 2 s once), and a kill before any acknowledgement proves nothing.
    await sleep(2000);
    const deadline = Date.now() + 60_000;
    while (report.acknowledged.size < 5 && Date.now() < deadline) await sleep(100);
    ackedBeforeKill = report.acknowledged.size;
    await current.kill('SIGKILL');
    // The keyed writers keep retrying their write until the portal is back (on a new port).
    current = await opts.restart();
    await sleep(opts.settleMs);
  } finally {
    stop = true;
    await done;
  }
  expect(report.unexpected).toEqual([]);
  const counts = await payoutsByNote(current.url, token, publisherId);
  const { lost, duplicated, phantom } = checkExactlyOnce(report, counts);
  console.info(
    `${opts.label}: writes attempted ${report.attempted.size}, acknowledged ${report.acknowledged.size}, lost ${lost.length}, duplicated ${duplicated.length}`,
  );
  expect(lost).toEqual([]);
  expect(duplicated).toEqual([]);
  expect(phantom).toEqual([]);
  // The load really ran on both sides of the kill.
  expect(ackedBeforeKill).toBeGreaterThan(0);
  expect(report.acknowledged.size).toBeGreaterThan(ackedBeforeKill);
  return current;
}
