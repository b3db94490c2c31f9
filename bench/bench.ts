// `npm run bench`: fills a PostgreSQL database at a real network's size, starts the portal on
// it and measures every endpoint the screens call, plus the point-read ladder. See README,
// "Benchmark". `--smoke` runs the same at a tiny size and fails on any error (CI).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { DEFAULT_POOL_MAX } from '../server/config.ts';
import { DEMO_ACCOUNTS } from '../server/demo/demo-seed.service.ts';
import {
  ACCOUNTS,
  BENCH_PASSWORD,
  FULL_SIZES,
  importCsv,
  prepareDatabase,
  type Sizes,
  SMOKE_SIZES,
} from './fill.ts';
import { type LoadResult, once, percentile, type RequestSpec, runLoad } from './load.ts';
import { ME_SQL, meParams, pgbenchScript } from './me-sql.ts';

const root = path.resolve(import.meta.dirname, '..');
const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/portal_bench';

const USAGE = `Usage: npm run bench [-- options]
  Fills BENCH_DATABASE_URL (default ${DEFAULT_URL}) and measures the portal on it.
  --leads N  --publishers N  --big-publishers N  --buyers N  --offers N
  --applications N  --payouts N  --campaigns N  --audit N     data sizes (default: the issue's scale)
  --duration S        seconds per endpoint and concurrency (default 5)
  --concurrency L     comma-separated connection counts (default 10,50)
  --only TEXT[,TEXT]  only the endpoints whose name contains one of the TEXTs
  --no-ladder         skip the point-read ladder
  --smoke             tiny sizes, 1 s, c=2; exit 1 on any error (CI)
  --pglite            the embedded default instead: \`npm run demo\` data (--leads, --publishers,
                      --buyers passed on) in a temporary DATA_DIR, the portal on PGlite, c=10;
                      no ladder (it is PostgreSQL's)
  --compare A.json B.json   print the change per row between two result files`;

type Row = { endpoint: string; c: number } & Omit<LoadResult, 'statuses' | 'firstError'> & {
    statuses: Record<string, number>;
    firstError?: string;
  };
type LadderRow = {
  rung: string;
  c: number;
  rps: number;
  p50?: number;
  p95?: number;
  note?: string;
};
type Results = {
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
};

type ImportFigures = {
  rows: number;
  upload: number;
  checkSeconds: number;
  importSeconds: number;
  reimportCheckSeconds: number;
  reimportSeconds: number;
  bulkSeconds: number;
  bulkChanged: number;
};

// ---------------------------------------------------------------- small helpers

/** A problem to report without a stack trace; thrown so the children are stopped first. */
class BenchError extends Error {}

function fail(message: string): never {
  throw new BenchError(message);
}

const fmt = (n: number, digits = 1) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '-';
const ms = (n: number) => (n >= 100 ? fmt(n, 0) : n >= 10 ? fmt(n, 1) : fmt(n, 2));

function table(head: string[], rows: string[][], rightFrom = 1): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i >= rightFrom ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

async function freePort(): Promise<number> {
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

type Child = { url: string; stop: () => Promise<void> };

/** Starts a node child process and waits until `ready(url)` answers. */
async function startChild(
  script: string,
  env: NodeJS.ProcessEnv,
  url: string,
  readyPath: string,
): Promise<Child> {
  let log = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], {
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
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(t);
  };
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

function findPgbench(): string | null {
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

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  return new Promise<{ code: number; out: string }>((resolve) => {
    execFile(cmd, args, { env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({
        code: err ? ((err as { code?: number }).code ?? 1) : 0,
        out: `${stdout}${stderr}`,
      });
    });
  });
}

// ---------------------------------------------------------------- compare

function compare(aFile: string, bFile: string) {
  const a = JSON.parse(readFileSync(aFile, 'utf8')) as Results;
  const b = JSON.parse(readFileSync(bFile, 'utf8')) as Results;
  const pct = (x: number, y: number) =>
    Number.isFinite(x) && Number.isFinite(y) && x > 0
      ? `${y >= x ? '+' : ''}${fmt(((y - x) / x) * 100, 0)}%`
      : '-';
  const key = (r: { endpoint: string; c: number }) => `${r.endpoint}@${r.c}`;
  const before = new Map(a.rows.map((r) => [key(r), r]));
  const rows = b.rows.map((r) => {
    const o = before.get(key(r));
    return [
      r.endpoint,
      String(r.c),
      o ? fmt(o.rps) : '-',
      fmt(r.rps),
      o ? pct(o.rps, r.rps) : 'new',
      o ? ms(o.p95) : '-',
      ms(r.p95),
      o ? pct(o.p95, r.p95) : 'new',
      `${o ? o.errors : '-'} → ${r.errors}`,
    ];
  });
  const after = new Set(b.rows.map(key));
  for (const o of a.rows) {
    if (!after.has(key(o))) {
      rows.push([
        o.endpoint,
        String(o.c),
        fmt(o.rps),
        '-',
        'gone',
        ms(o.p95),
        '-',
        'gone',
        `${o.errors} → -`,
      ]);
    }
  }
  console.log(`${aFile} (${a.startedAt}) → ${bFile} (${b.startedAt})\n`);
  console.log(
    table(
      ['endpoint', 'c', 'req/s A', 'req/s B', 'Δ req/s', 'p95 A ms', 'p95 B ms', 'Δ p95', 'errors'],
      rows,
      1,
    ),
  );
  const la = new Map(a.ladder.map((r) => [`${r.rung}@${r.c}`, r]));
  const lrows = b.ladder.map((r) => {
    const o = la.get(`${r.rung}@${r.c}`);
    return [r.rung, String(r.c), o ? fmt(o.rps) : '-', fmt(r.rps), o ? pct(o.rps, r.rps) : 'new'];
  });
  if (lrows.length)
    console.log(`\n${table(['ladder rung', 'c', 'req/s A', 'req/s B', 'Δ'], lrows, 1)}`);
}

// ---------------------------------------------------------------- main

async function main() {
  const parse = () =>
    parseArgs({
      allowPositionals: true,
      options: {
        leads: { type: 'string' },
        publishers: { type: 'string' },
        'big-publishers': { type: 'string' },
        buyers: { type: 'string' },
        offers: { type: 'string' },
        applications: { type: 'string' },
        payouts: { type: 'string' },
        campaigns: { type: 'string' },
        audit: { type: 'string' },
        duration: { type: 'string' },
        concurrency: { type: 'string' },
        only: { type: 'string' },
        'no-ladder': { type: 'boolean' },
        smoke: { type: 'boolean' },
        pglite: { type: 'boolean' },
        compare: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  // parseArgs's complaint (an unknown option, a missing value) is shown beside the usage.
  const { values, positionals } = (() => {
    try {
      return parse();
    } catch (err) {
      fail(`${(err as Error).message}\n\n${USAGE}`);
    }
  })();
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (values.compare) {
    if (positionals.length !== 2) fail('--compare needs two result files: --compare A.json B.json');
    compare(positionals[0]!, positionals[1]!);
    return;
  }
  const smoke = values.smoke === true;
  const whole = (name: string, v: string | undefined, d: number, min = 0) => {
    if (v === undefined) return d;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min)
      fail(`--${name} must be a whole number of at least ${min}, got "${v}".`);
    return n;
  };
  const base = smoke ? SMOKE_SIZES : FULL_SIZES;
  const sizes: Sizes = {
    publishers: whole('publishers', values.publishers, base.publishers, 4),
    bigPublishers: whole('big-publishers', values['big-publishers'], base.bigPublishers, 1),
    buyers: whole('buyers', values.buyers, base.buyers, 1),
    offers: whole('offers', values.offers, base.offers, 1),
    applications: whole('applications', values.applications, base.applications),
    leads: whole('leads', values.leads, base.leads),
    payouts: whole('payouts', values.payouts, base.payouts),
    campaigns: whole('campaigns', values.campaigns, base.campaigns),
    audit: whole('audit', values.audit, base.audit),
  };
  if (sizes.bigPublishers > 9)
    fail('--big-publishers must be at most 9 (each owns ~10% of the leads).');
  if (sizes.applications > sizes.publishers * Math.min(sizes.offers, 5)) {
    fail(
      '--applications must be at most publishers × min(offers, 5) (each publisher applies to a few offers).',
    );
  }
  const duration = Number(values.duration ?? (smoke ? 1 : 5));
  if (!(duration > 0 && duration <= 600)) fail('--duration must be a number of seconds (0-600).');
  const concurrency = (values.concurrency ?? (smoke ? '2' : values.pglite ? '10' : '10,50'))
    .split(',')
    .map((s) => {
      const n = Number(s.trim());
      if (!Number.isInteger(n) || n < 1 || n > 500)
        fail(`--concurrency takes numbers from 1 to 500, got "${s}".`);
      return n;
    });
  const pglite = values.pglite === true;
  if (pglite && smoke) fail('--pglite and --smoke do not go together.');
  const dbUrl = process.env.BENCH_DATABASE_URL || DEFAULT_URL;
  // The portal's pool (DB_POOL_MAX, else its default); the ladder's rungs get the same.
  const poolMax = whole('DB_POOL_MAX', process.env.DB_POOL_MAX, DEFAULT_POOL_MAX, 1);
  const startedAt = new Date();
  const say = (line: string) => console.log(line);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));

  // 1. The database: PostgreSQL filled at the chosen sizes, or (--pglite) the demo data in an
  // embedded database under a temporary DATA_DIR.
  let db: pg.Client | undefined;
  let fill: Results['fill'];
  let accounts: typeof ACCOUNTS;
  let databaseEnv: NodeJS.ProcessEnv;
  let databaseName: string;
  let demoSummary: string | undefined;
  if (pglite) {
    say(`Embedded database (PGlite) in ${dataDir}, filled by npm run demo`);
    const started = performance.now();
    const demoArgs = ['--password', BENCH_PASSWORD];
    for (const k of ['leads', 'publishers', 'buyers'] as const) {
      if (values[k] !== undefined) demoArgs.push(`--${k}`, values[k]!);
    }
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
    // The demo's own summary lines ("publishers …", "leads …"), kept with the results.
    demoSummary = demo.out
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /^(publishers|offers|applications|leads|payouts|buyers) /.test(l))
      .join('; ');
    say(`  ${demoSummary || 'demo data'}; ${fmt((performance.now() - started) / 1000)} s`);
    fill = {
      reused: false,
      seconds: (performance.now() - started) / 1000,
      steps: [['npm run demo', (performance.now() - started) / 1000]],
    };
    accounts = {
      admin: DEMO_ACCOUNTS.admin,
      publisher: DEMO_ACCOUNTS.publisher,
      buyer: DEMO_ACCOUNTS.buyer,
    };
    databaseEnv = { DATABASE_URL: '' };
    databaseName = 'PGlite (embedded)';
  } else {
    const u = new URL(dbUrl);
    say(`Bench database: ${u.hostname}:${u.port || 5432}${u.pathname}`);
    say(
      `Sizes: ${Object.entries(sizes)
        .map(([k, v]) => `${k} ${v.toLocaleString('en-US')}`)
        .join(', ')}`,
    );
    fill = await prepareDatabase(dbUrl, sizes, say);
    say(
      fill.reused
        ? 'Reusing the earlier fill of these sizes.'
        : `Filled in ${fmt(fill.seconds)} s.`,
    );
    db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    accounts = ACCOUNTS;
    databaseEnv = { DATABASE_URL: dbUrl };
    databaseName = `PostgreSQL ${(await db.query<{ server_version: string }>('show server_version')).rows[0]!.server_version}`;
  }

  // 2. The portal, on a free port, logging warnings only.
  const port = await freePort();
  const portalUrl = `http://127.0.0.1:${port}`;
  const children: Child[] = [];
  const cleanup = async () => {
    for (const c of children.reverse()) await c.stop().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
    await db?.end().catch(() => {});
  };
  process.on('SIGINT', () => {
    void cleanup().then(() => process.exit(130));
  });

  let exitCode = 0;
  const results: Results = {
    startedAt: startedAt.toISOString(),
    smoke,
    sizes: pglite ? null : sizes,
    ...(demoSummary ? { demo: demoSummary } : {}),
    fill,
    machine: {
      cpus: os.cpus().length,
      load: os.loadavg(),
      node: process.version,
      postgres: databaseName,
    },
    durationSeconds: duration,
    rows: [],
    ladder: [],
  };
  try {
    say('Starting the portal…');
    const metricsToken = randomBytes(24).toString('base64url');
    children.push(
      await startChild(
        'server/main.ts',
        {
          ...process.env,
          NODE_ENV: 'production',
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: portalUrl,
          DATA_DIR: dataDir,
          // No SPA: the bench measures the API (the data folder has no index.html).
          WEB_ROOT: dataDir,
          DB_POOL_MAX: String(poolMax),
          ...databaseEnv,
          JWT_SECRET: randomBytes(36).toString('base64url'),
          LOG_LEVEL: 'warn',
          // The sign-in rows come from many addresses (X-Forwarded-For), as from many people.
          TRUST_PROXY: '1',
          ADMIN_EMAIL: '',
          ADMIN_PASSWORD: '',
          SMTP_URL: '',
          REDIS_URL: '',
          S3_BUCKET: '',
          S3_ENDPOINT: '',
          METRICS_TOKEN: metricsToken,
          METRICS_PORT: '',
        },
        portalUrl,
        '/readyz',
      ),
    );
    // A portal that has been running a while has read its report blocks into memory (a few
    // seconds after a start): measured from then, as users meet it, not during the warm-up.
    const warmStarted = performance.now();
    let warm = false;
    while (!warm && performance.now() - warmStarted < 120_000) {
      const r = await fetch(`${portalUrl}/metrics`, {
        headers: { authorization: `Bearer ${metricsToken}` },
      }).catch(() => null);
      warm = r?.ok === true && /^report_warm_up_done 1$/m.test(await r.text());
      if (!warm) await new Promise((res) => setTimeout(res, 250));
    }
    say(
      warm
        ? `Report blocks read into memory in ${((performance.now() - warmStarted) / 1000).toFixed(1)} s after ready.`
        : 'The report warm-up did not finish within 120 s; measuring anyway.',
    );

    let ipCounter = 0;
    const nextIp = () => {
      ipCounter++;
      return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
    };
    const signIn = async (email: string) => {
      const r = await once(portalUrl, {
        method: 'POST',
        path: '/auth/v1/token?grant_type=password',
        headers: { 'x-forwarded-for': nextIp() },
        body: JSON.stringify({ email, password: BENCH_PASSWORD }),
      });
      if (r.status !== 200) fail(`Signing in ${email} failed: ${r.status} ${r.body.slice(0, 300)}`);
      return JSON.parse(r.body) as {
        access_token: string;
        refresh_token: string;
        user: { id: string };
      };
    };
    const admin = await signIn(accounts.admin);
    const publisher = await signIn(accounts.publisher);
    const buyer = await signIn(accounts.buyer);
    // The bench's biggest publisher, or the demo's featured one.
    const bigPublisherId = publisher.user.id;
    const auth = (t: string) => ({ authorization: `Bearer ${t}` });
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const today = new Date();
    const monthAgo = new Date(Date.now() - 30 * 86_400_000);
    // Reports (issue 15): a whole year of leads is the longest range the fill holds.
    const year = `range=custom&from=${day(new Date(Date.now() - 365 * 86_400_000))}&to=${day(today)}`;
    const month = `range=custom&from=${day(monthAgo)}&to=${day(today)}`;

    type Endpoint = {
      name: string;
      /**
       * Measured once, with one connection, whatever --concurrency says: a CSV export streams
       * 100k rows for seconds, and fifty at once would take the run from minutes to an hour.
       */
      single?: boolean;
      /** Load run beside the measured one for the same time (its own figures are not shown). */
      during?: { connections: number; source: (c: number) => Promise<(w: number) => RequestSpec> };
      request: (c: number) => Promise<{
        source: (w: number) => RequestSpec;
        onAnswer?: (w: number, a: { status: number; body: string }) => void;
      }>;
    };
    /**
     * "Any report for any range": every request a range not asked before (from 28 days to a
     * year, ending on any of the last 200 days), so no whole answer is ever kept.
     */
    const newRanges = (name: string, params: string): Endpoint => ({
      name,
      request: async () => {
        let n = 0;
        return {
          source: () => {
            n++;
            const end = new Date(today.getTime() - (n % 200) * 86_400_000);
            const span = Math.min(364, 28 + ((n * 37) % 337));
            const start = new Date(end.getTime() - span * 86_400_000);
            const q = `range=custom&from=${day(start)}&to=${day(end)}&${params}`;
            return { method: 'GET', path: `/api/v1/admin/reports?${q}`, headers: auth(A) };
          },
        };
      },
    });
    const get = (name: string, p: string, token: string, single = false): Endpoint => ({
      name,
      single,
      request: async () => ({ source: () => ({ method: 'GET', path: p, headers: auth(token) }) }),
    });
    const A = admin.access_token;
    const P = publisher.access_token;
    /** A list page reached by walking: `path` with the `after` cursor its previous page gave. */
    // How many leads there are: the list's total when exact (small fills, the demo), else the
    // fill's size; the deep page is page 1000, or the middle page of a smaller fill (--smoke).
    const firstPage = JSON.parse(
      (await once(portalUrl, { method: 'GET', path: '/api/v1/admin/leads', headers: auth(A) }))
        .body,
    ) as { total: number; total_exact?: boolean };
    const leadCount = firstPage.total_exact ? firstPage.total : sizes.leads;
    const lastPage = Math.max(1, Math.ceil(leadCount / 25));
    const deepPage = Math.max(2, Math.min(1000, Math.floor(lastPage / 2)));
    const afterCursor = (name: string, p: string, page: number, token: string): Endpoint => ({
      name,
      request: async () => {
        const sep = p.includes('?') ? '&' : '?';
        const r = await once(portalUrl, {
          method: 'GET',
          path: `${p}${sep}page=${page - 1}`,
          headers: auth(token),
        });
        const cursor = (JSON.parse(r.body) as { next_cursor?: string | null }).next_cursor;
        if (!cursor) fail(`${name}: page ${page - 1} of ${p} gave no next_cursor.`);
        const path = `${p}${sep}page=${page}&after=${encodeURIComponent(cursor!)}`;
        return { source: () => ({ method: 'GET', path, headers: auth(token) }) };
      },
    });
    /**
     * Password sign-ins from c connections, each signing in its own approved publisher, as
     * different people do: one account signing in c times at once is what the per-account
     * throttle (a right password counts only once it is checked) slows down on purpose.
     */
    const signInSource = async (c: number): Promise<(w: number) => RequestSpec> => {
      const r = await once(portalUrl, {
        method: 'GET',
        path: `/api/v1/admin/publishers?status=approved&page_size=${Math.min(200, c)}`,
        headers: auth(A),
      });
      const emails = (JSON.parse(r.body) as { items: { email: string }[] }).items.map(
        (p) => p.email,
      );
      if (emails.length === 0) fail('No approved publisher to sign in as.');
      return (w) => ({
        method: 'POST',
        path: '/auth/v1/token?grant_type=password',
        headers: { 'x-forwarded-for': nextIp() },
        body: JSON.stringify({ email: emails[w % emails.length], password: BENCH_PASSWORD }),
      });
    };
    const firstOfferId = (
      JSON.parse(
        (
          await once(portalUrl, {
            method: 'GET',
            path: '/api/v1/admin/offers?page_size=1',
            headers: auth(A),
          })
        ).body,
      ) as { items: { id: string }[] }
    ).items[0]!.id;
    /** A new integration (answered with its key) and the offer the ingest scenarios post to. */
    const ingestTarget = async (what: string, integration: Record<string, unknown>) => {
      const made = await once(portalUrl, {
        method: 'POST',
        path: '/api/v1/admin/integrations',
        headers: auth(A),
        body: JSON.stringify(integration),
      });
      const offersPage = await once(portalUrl, {
        method: 'GET',
        path: '/api/v1/admin/offers?page_size=1',
        headers: auth(A),
      });
      if (made.status !== 201 || offersPage.status !== 200) {
        fail(`Preparing ${what} failed: ${made.status} ${made.body.slice(0, 300)}`);
      }
      return {
        key: (JSON.parse(made.body) as { key: string }).key,
        offerId: (JSON.parse(offersPage.body) as { items: { id: string }[] }).items[0]!.id,
      };
    };
    const endpoints: Endpoint[] = [
      {
        name: 'GET /healthz',
        request: async () => ({ source: () => ({ method: 'GET', path: '/healthz' }) }),
      },
      get('GET /api/v1/me (admin)', '/api/v1/me', A),
      get('admin stats', '/api/v1/admin/stats', A),
      get('admin daily stats (30 days)', '/api/v1/admin/stats/daily?days=30', A),
      get('admin leads, first page', '/api/v1/admin/leads', A),
      get('admin leads, page 1000', '/api/v1/admin/leads?page=1000', A),
      afterCursor(
        `admin leads, after cursor (deep, page ${deepPage})`,
        '/api/v1/admin/leads',
        deepPage,
        A,
      ),
      get('admin leads, last page', `/api/v1/admin/leads?page=${lastPage}`, A),
      get('admin leads, sort payout', '/api/v1/admin/leads?sort=payout', A),
      get(
        'admin leads, sort call duration asc',
        '/api/v1/admin/leads?sort=call_duration&order=asc',
        A,
      ),
      get('admin leads, big publisher', `/api/v1/admin/leads?publisher_id=${bigPublisherId}`, A),
      get(
        'admin leads, big publisher by payout',
        `/api/v1/admin/leads?publisher_id=${bigPublisherId}&sort=payout`,
        A,
      ),
      get(
        'admin leads, 30-day range',
        `/api/v1/admin/leads?from=${day(monthAgo)}&to=${day(today)}`,
        A,
      ),
      get('admin leads, pending', '/api/v1/admin/leads?status=pending', A),
      get(
        'admin leads CSV, big publisher',
        `/api/v1/admin/leads.csv?publisher_id=${bigPublisherId}`,
        A,
        true,
      ),
      get(
        'admin leads CSV, 30-day range',
        `/api/v1/admin/leads.csv?from=${day(monthAgo)}&to=${day(today)}`,
        A,
        true,
      ),
      // Count and payout sum above the leads list (issue 13): maintained totals, then the
      // capped count of the rows where the totals cannot answer (an offer, part of a day).
      get('admin leads totals, pending', '/api/v1/admin/leads/totals?status=pending', A),
      get(
        'admin leads totals, big publisher 30 days',
        `/api/v1/admin/leads/totals?publisher_id=${bigPublisherId}&from=${day(monthAgo)}&to=${day(today)}`,
        A,
      ),
      get(
        'admin leads totals, one offer',
        `/api/v1/admin/leads/totals?offer_id=${firstOfferId}`,
        A,
      ),
      get(
        'admin leads totals, part of a day',
        `/api/v1/admin/leads/totals?from=${day(monthAgo)}T06:00:00Z&to=${day(monthAgo)}T18:00:00Z`,
        A,
      ),
      get(
        'admin leads totals, big publisher pending 30 days',
        `/api/v1/admin/leads/totals?publisher_id=${bigPublisherId}&status=pending&from=${day(monthAgo)}&to=${day(today)}`,
        A,
      ),
      get('admin payouts', '/api/v1/admin/payouts', A),
      get(
        'admin payouts CSV, big publisher',
        `/api/v1/admin/payouts.csv?publisher_id=${bigPublisherId}`,
        A,
        true,
      ),
      get('admin publishers', '/api/v1/admin/publishers', A),
      get(
        'admin publishers, search',
        '/api/v1/admin/publishers?q=publisher-42&page_size=50&sort=name&order=asc',
        A,
      ),
      get('admin publisher detail (big)', `/api/v1/admin/publishers/${bigPublisherId}`, A),
      get('admin approved publishers', '/api/v1/admin/approved-publishers?page_size=200', A),
      get('admin applications', '/api/v1/admin/applications', A),
      get('admin compliance', '/api/v1/admin/compliance', A),
      get('admin compliance, page_size 200', '/api/v1/admin/compliance?page_size=200', A),
      get('admin offers', '/api/v1/admin/offers', A),
      get('admin campaigns', '/api/v1/admin/campaigns', A),
      get('admin buyers', '/api/v1/admin/buyers', A),
      get('admin audit', '/api/v1/admin/audit', A),
      get('admin report, year by day', `/api/v1/admin/reports?${year}&group=day`, A),
      get('admin report, 31 days by hour', `/api/v1/admin/reports?${month}&group=hour`, A),
      get('admin report, year by offer', `/api/v1/admin/reports?${year}&group=offer`, A),
      get('admin report, year by vertical', `/api/v1/admin/reports?${year}&group=vertical`, A),
      get('admin report, year by state', `/api/v1/admin/reports?${year}&group=state`, A),
      get('admin report, year by publisher', `/api/v1/admin/reports?${year}&group=publisher`, A),
      get(
        'admin report, year by publisher, by name',
        `/api/v1/admin/reports?${year}&group=publisher&sort=label&order=asc`,
        A,
      ),
      newRanges('admin report, by publisher, a new range each time', 'group=publisher'),
      newRanges(
        'admin report, by publisher by name, a new range each time',
        'group=publisher&sort=label&order=asc',
      ),
      get(
        'admin report, year by publisher, compared',
        `/api/v1/admin/reports?${year}&group=publisher&compare=true&sort=payout`,
        A,
      ),
      get(
        'admin report, last month by offer, compared',
        '/api/v1/admin/reports?range=last_month&group=offer&compare=true',
        A,
      ),
      get(
        'admin report CSV, year by publisher',
        `/api/v1/admin/reports.csv?${year}&group=publisher`,
        A,
      ),
      get('publisher report (big), year by day', `/api/v1/publisher/reports?${year}&group=day`, P),
      get(
        'publisher report (big), year by offer, compared',
        `/api/v1/publisher/reports?${year}&group=offer&compare=true`,
        P,
      ),
      get(
        'publisher report (big), year by state',
        `/api/v1/publisher/reports?${year}&group=state`,
        P,
      ),
      get('publisher overview (big)', '/api/v1/publisher/overview', P),
      get('publisher overview range (big), year', `/api/v1/publisher/overview/range?${year}`, P),
      get('admin dashboard range, year', `/api/v1/admin/stats/range?${year}`, A),
      get('publisher leads (big)', '/api/v1/publisher/leads', P),
      get('publisher leads (big), page 1000', '/api/v1/publisher/leads?page=1000', P),
      get('publisher leads (big), by offer', '/api/v1/publisher/leads?sort=offer&order=asc', P),
      get('publisher payouts (big)', '/api/v1/publisher/payouts', P),
      get('publisher offers', '/api/v1/publisher/offers', P),
      get('publisher documents', '/api/v1/publisher/documents', P),
      get('publisher IOs', '/api/v1/publisher/ios', P),
      get('buyer campaigns', '/api/v1/buyer/campaigns', buyer.access_token),
      {
        name: 'POST /auth/v1/token password (sign-in)',
        request: async (c) => ({ source: await signInSource(c) }),
      },
      {
        // argon2id must not starve other requests: the point read while 10 sign-ins run.
        name: 'GET /api/v1/me during sign-ins (c=10)',
        during: { connections: 10, source: signInSource },
        request: async () => ({
          source: () => ({ method: 'GET', path: '/api/v1/me', headers: auth(A) }),
        }),
      },
      {
        name: 'POST /auth/v1/token refresh',
        request: async (c) => {
          // One refresh chain per connection: each answer's token is the next request's.
          const tokens: string[] = [];
          for (let i = 0; i < c; i++) tokens.push((await signIn(accounts.publisher)).refresh_token);
          return {
            source: (w) => ({
              method: 'POST',
              path: '/auth/v1/token?grant_type=refresh_token',
              headers: { 'x-forwarded-for': nextIp() },
              body: JSON.stringify({ refresh_token: tokens[w] }),
            }),
            onAnswer: (w, a) => {
              if (a.status === 200)
                tokens[w] = (JSON.parse(a.body) as { refresh_token: string }).refresh_token;
            },
          };
        },
      },
      {
        // A call tracker's postback (issue 13): each request a new call, so each one inserts.
        name: 'POST /api/v1/ingest/calls',
        request: async () => {
          const { key, offerId } = await ingestTarget('ingestion', { name: `bench ${Date.now()}` });
          let n = 0;
          return {
            source: () => ({
              method: 'POST',
              path: '/api/v1/ingest/calls',
              headers: { 'x-api-key': key },
              body: JSON.stringify({
                call_id: `bench-${Date.now().toString(36)}-${n++}`,
                event: 'completed',
                publisher: bigPublisherId,
                offer: offerId,
                caller: '+15551230000',
                duration: 95,
              }),
            }),
          };
        },
      },
      {
        // The same through a tracker preset (issue 26): a nested JSON webhook read by paths,
        // its status word through a value map, the caller normalised to E.164.
        name: 'POST /api/v1/ingest/calls (preset, nested JSON)',
        request: async () => {
          const { key, offerId } = await ingestTarget('preset ingestion', {
            name: `bench preset ${Date.now()}`,
            tracker: 'ringba',
            field_map: {
              call_id: { names: ['call.inboundCallId', 'callId'] },
              event: {
                names: ['call.status'],
                map: {
                  completed: 'completed',
                  'no answer': 'not_connected',
                  busy: 'not_connected',
                },
              },
              publisher: { names: ['publisher.id'] },
              offer: { names: ['campaign.id'] },
              caller: { names: ['call.callerId'] },
              duration: { names: ['call.connectedSeconds'] },
            },
          });
          let n = 0;
          return {
            source: () => ({
              method: 'POST',
              path: '/api/v1/ingest/calls',
              headers: { 'x-api-key': key },
              body: JSON.stringify({
                call: {
                  inboundCallId: `RGB-${Date.now().toString(36)}-${n}`,
                  status: n % 10 === 0 ? 'No Answer' : 'Completed',
                  callerId: `(310) 555-${String(1000 + (n++ % 9000))}`,
                  connectedSeconds: 95,
                },
                publisher: { id: bigPublisherId, name: 'bench' },
                campaign: { id: offerId },
              }),
            }),
          };
        },
      },
    ];
    const only = values.only?.split(',').map((o) => o.trim());
    const chosen = only ? endpoints.filter((e) => only.some((o) => e.name.includes(o))) : endpoints;
    const measureImport = !only || only.some((o) => 'csv import'.includes(o) || o === 'bulk');
    if (chosen.length === 0 && !measureImport) fail(`No endpoint name contains "${values.only}".`);

    // 3. Each endpoint at each concurrency: one warm-up request, then the timed run.
    say(`\nLoad: ${chosen.length} endpoints × c=${concurrency.join(',')} × ${duration} s each\n`);
    for (const [i, level] of concurrency.entries()) {
      for (const e of chosen) {
        if (e.single && i > 0) continue;
        const c = e.single ? 1 : level;
        const { source, onAnswer } = await e.request(c);
        const beside = e.during ? await e.during.source(e.during.connections) : undefined;
        await once(portalUrl, source(0))
          .then((a) => onAnswer?.(0, a))
          .catch(() => {});
        const [r] = await Promise.all([
          runLoad({
            baseUrl: portalUrl,
            connections: c,
            seconds: duration,
            request: source,
            onAnswer,
          }),
          e.during && beside
            ? runLoad({
                baseUrl: portalUrl,
                connections: e.during.connections,
                seconds: duration,
                request: beside,
              })
            : undefined,
        ]);
        const row: Row = { endpoint: e.name, c, ...r };
        results.rows.push(row);
        say(
          `  ${e.name.padEnd(42)} c=${String(c).padEnd(3)} ${fmt(r.rps).padStart(9)} req/s  p50 ${ms(r.p50).padStart(7)}  p95 ${ms(r.p95).padStart(7)}  p99 ${ms(r.p99).padStart(7)} ms  errors ${r.errors}${r.firstError ? `  (${r.firstError.slice(0, 160)})` : ''}`,
        );
      }
    }

    // 3b. CSV import (issue 13): a file of 100,000 calls checked, imported, checked and
    // imported again (nothing changes), then one bulk action approving all of them.
    if (measureImport) {
      const rows = smoke ? 1_000 : 100_000;
      say(`\nCSV import of ${rows.toLocaleString('en-US')} rows, then a bulk approve of them…`);
      const figures = await benchImport({ portalUrl, token: A, rows, db, say });
      results.import = figures;
    }

    // 4. The point-read ladder: the same statement as GET /api/v1/me, from PostgreSQL's own
    // client to our route.
    if (db && !values['no-ladder']) {
      const session = (
        await db.query<{ id: string }>(
          'select id from auth_sessions where user_id = $1 order by created_at desc limit 1',
          [admin.user.id],
        )
      ).rows[0]!.id;
      const barePort = await freePort();
      const bareUrl = `http://127.0.0.1:${barePort}`;
      const bare = await startChild(
        'bench/bare-server.ts',
        {
          ...process.env,
          BENCH_DATABASE_URL: dbUrl,
          BENCH_USER_ID: admin.user.id,
          BENCH_SESSION_ID: session,
          BENCH_POOL_MAX: String(poolMax),
          PORT: String(barePort),
        },
        bareUrl,
        '/me',
      );
      children.push(bare);
      say('\nPoint-read ladder (the statement of GET /api/v1/me)…');
      // Each rung runs untimed first for a moment: connections open, the JIT warms up.
      const warmup = Math.min(1, duration / 2);
      const pgbench = findPgbench();
      const script = path.join(dataDir, 'me.sql');
      writeFileSync(script, pgbenchScript(admin.user.id, session));
      for (const c of concurrency) {
        // pgbench: PostgreSQL's own C client, the ceiling.
        if (pgbench) {
          const r = await run(pgbench, [
            '-n',
            '-c',
            String(c),
            '-j',
            String(Math.min(c, os.cpus().length)),
            '-T',
            String(Math.max(1, Math.round(duration))),
            '-f',
            script,
            dbUrl,
          ]);
          const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(r.out);
          const row: LadderRow = tps
            ? { rung: 'pgbench (C client, same SQL)', c, rps: Number(tps[1]) }
            : { rung: 'pgbench (C client, same SQL)', c, rps: Number.NaN, note: r.out.slice(-300) };
          results.ladder.push(row);
        } else {
          results.ladder.push({
            rung: 'pgbench (C client, same SQL)',
            c,
            rps: Number.NaN,
            note: 'pgbench not found',
          });
        }
        // node-postgres in this process, a pool the size of the portal's.
        {
          const pool = new pg.Pool({ connectionString: dbUrl, max: poolMax });
          const query = {
            name: 'me',
            text: ME_SQL,
            values: meParams(admin.user.id, session),
            rowMode: 'array' as const,
          };
          const loop = async (seconds: number) => {
            const lat: number[] = [];
            const started = performance.now();
            const stopAt = started + seconds * 1000;
            await Promise.all(
              Array.from({ length: c }, async () => {
                while (performance.now() < stopAt) {
                  const t = performance.now();
                  await pool.query(query);
                  lat.push(performance.now() - t);
                }
              }),
            );
            lat.sort((a, b) => a - b);
            return { lat, secs: (performance.now() - started) / 1000 };
          };
          await loop(warmup); // opens the pool's connections and warms the JIT
          const { lat, secs } = await loop(duration);
          await pool.end();
          results.ladder.push({
            rung: `node-postgres in-process (pool ${poolMax})`,
            c,
            rps: lat.length / secs,
            p50: percentile(lat, 50),
            p95: percentile(lat, 95),
          });
        }
        // A bare Fastify + pg route on the same SQL, then ours.
        for (const [rung, url, p, headers] of [
          ['bare Fastify + pg route', bareUrl, '/me', {}],
          ['our GET /api/v1/me', portalUrl, '/api/v1/me', auth(A)],
        ] as const) {
          const request = () => ({ method: 'GET' as const, path: p, headers });
          await runLoad({ baseUrl: url, connections: c, seconds: warmup, request });
          const r = await runLoad({ baseUrl: url, connections: c, seconds: duration, request });
          results.ladder.push({
            rung,
            c,
            rps: r.rps,
            p50: r.p50,
            p95: r.p95,
            note: r.errors ? `${r.errors} errors: ${r.firstError}` : undefined,
          });
          if (r.serverErrors > 0) exitCode = 1;
        }
      }
    }
  } finally {
    await cleanup();
  }

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
  const failing = results.rows.filter((r) => r.errors > 0 || r.requests === 0);
  if (failing.length) {
    say(`\n${failing.length} row(s) had errors:`);
    for (const r of failing)
      say(`  ${r.endpoint} c=${r.c}: ${JSON.stringify(r.statuses)} ${r.firstError ?? ''}`);
  }
  if (smoke && failing.length > 0) exitCode = 1;
  if (results.rows.some((r) => r.serverErrors > 0)) exitCode = 1;

  const dir = path.join(root, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(
    dir,
    `${startedAt.toISOString().replace(/[:.]/g, '-')}${smoke ? '-smoke' : ''}.json`,
  );
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  say(
    `\nFill: ${fill.reused ? 'reused' : `${fmt(fill.seconds)} s`}. Results written to ${path.relative(process.cwd(), file)}`,
  );
  say(
    `Machine: ${results.machine.cpus} CPUs, load average at start ${results.machine.load.map((l) => fmt(l, 2)).join(' ')}, Node ${process.version}, ${databaseName}`,
  );
  if (smoke) say(exitCode === 0 ? 'Smoke run: every endpoint answered 2xx.' : 'Smoke run FAILED.');
  process.exit(exitCode);
}

/**
 * The CSV import through the API as the screen drives it: upload, check (dry run), import,
 * polling the job; then the same file again (nothing may change), and one bulk approve of all
 * imported leads (dated January 2001, so no other lead matches). The imported leads and their
 * audit rows are removed afterwards, so the fill stays reusable.
 */
async function benchImport(opts: {
  portalUrl: string;
  token: string;
  rows: number;
  db: pg.Client | undefined;
  say: (line: string) => void;
}): Promise<ImportFigures> {
  const { portalUrl, token, rows } = opts;
  const api = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${portalUrl}/api/v1/${p}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      },
      body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) fail(`${method} ${p} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const pubs = (await api('GET', 'admin/publishers?status=approved&page_size=50')).items as {
    id: string;
  }[];
  const offers = (await api('GET', 'admin/offers?page_size=20')).items as { id: string }[];
  if (!pubs.length || !offers.length) fail('No approved publisher or offer to import calls for.');
  const { csv, mapping } = importCsv(rows, pubs, offers);
  const until = async (id: string) => {
    for (;;) {
      const job = await api('GET', `admin/lead-imports/${id}`);
      if (job.status !== 'checking' && job.status !== 'importing') return job;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const timed = async (step: () => Promise<Record<string, unknown>>) => {
    const t0 = performance.now();
    const out = await step();
    return { out, secs: (performance.now() - t0) / 1000 };
  };
  const importFile = async () => {
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), `bench-import-${run}.csv`);
    const made = await api('POST', 'admin/lead-imports', form);
    const id = made.id as string;
    const check = await timed(async () => {
      await api('POST', `admin/lead-imports/${id}/check`, { mapping });
      return until(id);
    });
    if (check.out.status !== 'checked') fail(`The import check failed: ${check.out.message}`);
    const imp = await timed(async () => {
      await api('POST', `admin/lead-imports/${id}/import`);
      return until(id);
    });
    if (imp.out.status !== 'imported') fail(`The import failed: ${imp.out.message}`);
    return { check, imp };
  };
  try {
    const first = await importFile();
    opts.say(
      `  check ${fmt(first.check.secs, 2)} s (${fmt(rows / first.check.secs, 0)} rows/s), import ${fmt(first.imp.secs, 2)} s (${fmt(rows / first.imp.secs, 0)} rows/s): ${first.imp.out.created} created`,
    );
    if (first.imp.out.created !== rows)
      fail(`The import created ${first.imp.out.created} of ${rows} leads.`);
    const again = await importFile();
    opts.say(
      `  the same file again: check ${fmt(again.check.secs, 2)} s, import ${fmt(again.imp.secs, 2)} s: ${again.imp.out.created} created, ${again.imp.out.updated} updated, ${again.imp.out.unchanged} unchanged`,
    );
    if (again.imp.out.created !== 0 || again.imp.out.updated !== 0) {
      fail('Importing the same file again changed leads.');
    }
    const bulk = await timed(() =>
      api('POST', 'admin/leads/bulk-status', {
        status: 'approved',
        reason: 'other',
        note: 'benchmark',
        filter: { from: '2001-01-01', to: '2001-01-31' },
      }),
    );
    opts.say(`  bulk approve: ${bulk.out.changed} leads in ${fmt(bulk.secs, 2)} s`);
    return {
      rows,
      upload: Buffer.byteLength(csv),
      checkSeconds: first.check.secs,
      importSeconds: first.imp.secs,
      reimportCheckSeconds: again.check.secs,
      reimportSeconds: again.imp.secs,
      bulkSeconds: bulk.secs,
      bulkChanged: Number(bulk.out.changed),
    };
  } finally {
    if (opts.db) {
      await opts.db.query(
        `delete from audit_log where entity_type = 'lead' and entity_id in
           (select id::text from leads where external_call_id like $1)`,
        [`bench-import-${run}-%`],
      );
      await opts.db.query('delete from leads where external_call_id like $1', [
        `bench-import-${run}-%`,
      ]);
      await opts.db.query('delete from lead_imports where filename like $1', ['bench-import-%']);
    }
  }
}

main().catch((err) => {
  if (err instanceof BenchError) {
    console.error(err.message);
    process.exit(2);
  }
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
