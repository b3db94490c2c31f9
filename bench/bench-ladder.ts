// Step 4 of `npm run bench`, the point-read ladder: the same statement as GET /api/v1/me, from
// PostgreSQL's own client (pgbench) through node-postgres and a bare Fastify route to ours.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { findPgbench, run } from './bench-children.ts';
import type { LadderRow, Results } from './bench-report.ts';
import { percentile, runLoad } from './load.ts';
import { ME_SQL, meParams, pgbenchScript } from './me-sql.ts';

/** The user's latest session: the one a token signed in last carries. */
export async function latestSession(db: pg.Client, userId: string): Promise<string> {
  return (
    await db.query<{ id: string }>(
      'select id from auth_sessions where user_id = $1 order by created_at desc limit 1',
      [userId],
    )
  ).rows[0]!.id;
}

/** Runs the ladder into `results.ladder`; answers whether our route gave a server error. */
export async function runLadder(opts: {
  adminUserId: string;
  /** The admin's latest session (the one `token` carries), as the bare server's /me reads it. */
  session: string;
  /** The bare Fastify + pg server (bench/bare-server.ts), started with the admin's session. */
  bareUrl: string;
  dbUrl: string;
  poolMax: number;
  portalUrl: string;
  token: string;
  concurrency: number[];
  duration: number;
  dataDir: string;
  results: Results;
  say: (line: string) => void;
}): Promise<boolean> {
  const { dbUrl, poolMax, portalUrl, concurrency, duration, dataDir, results, say } = opts;
  const { session, bareUrl } = opts;
  const admin = { user: { id: opts.adminUserId } };
  const auth = (t: string) => ({ authorization: `Bearer ${t}` });
  const A = opts.token;
  let serverError = false;
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
