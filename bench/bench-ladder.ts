// Step 4 of `npm run bench`, the point-read ladder: the same statement as GET /api/v1/me, from
// PostgreSQL's own client (pgbench) through node-postgres and a bare Fastify route to ours.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Child, findPgbench, freePort, run, startChild } from './bench-children.ts';
import type { LadderRow, Results } from './bench-report.ts';
import { percentile, runLoad } from './load.ts';
import { ME_SQL, meParams, pgbenchScript } from './me-sql.ts';

/** Runs the ladder into `results.ladder`; answers whether our route gave a server error. */
export async function runLadder(opts: {
  db: pg.Client;
  adminUserId: string;
  dbUrl: string;
  poolMax: number;
  portalUrl: string;
  token: string;
  concurrency: number[];
  duration: number;
  dataDir: string;
  results: Results;
  /** The bare server is pushed here, to be stopped with the portal. */
  children: Child[];
  say: (line: string) => void;
}): Promise<boolean> {
  const { db, dbUrl, poolMax, portalUrl, concurrency, duration, dataDir, results, children, say } =
    opts;
  const admin = { user: { id: opts.adminUserId } };
  const auth = (t: string) => ({ authorization: `Bearer ${t}` });
  const A = opts.token;
  let serverError = false;
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
      if (r.serverErrors > 0) serverError = true;
    }
  }
  return serverError;
}
