// `npm run bench`: fills a PostgreSQL database at a real network's size, starts the portal on
// it and measures every endpoint the screens call, plus the point-read ladder. See README,
// "Benchmark". `--smoke` runs the same at a tiny size and fails on any error (CI).

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { DEMO_ACCOUNTS } from '../server/demo/demo-seed.service.ts';
import { readOptions } from './bench-args.ts';
import {
  BenchError,
  benchPortalEnv,
  type Child,
  fail,
  fillDemo,
  freePort,
  root,
  startChild,
} from './bench-children.ts';
import {
  benchDeliveries,
  deliveriesRow,
  deliveryCatchUp,
  earlierDeliveries,
  setUpOutbound,
} from './bench-deliveries.ts';
import { buildEndpoints, type EndpointGroup, rowKit } from './bench-endpoints.ts';
import { benchImport } from './bench-import.ts';
import { latestSession, runLadder } from './bench-ladder.ts';
import { benchLive, liveRow } from './bench-live.ts';
import {
  captureRows,
  explainTimes,
  type ReplayFile,
  type ReplaySample,
  statStatements,
} from './bench-refs.ts';
import { fmt, ms, printResults, type Results } from './bench-report.ts';
import { measureRow } from './bench-rows.ts';
import { ACCOUNTS, BENCH_PASSWORD, prepareDatabase } from './fill.ts';
import { once } from './load.ts';

/**
 * The groups of rows, in the order they run: the portal's screens (bench-endpoints.ts), then
 * any file of rows of its own. A new file exports an EndpointGroup and is added here.
 */
const ENDPOINT_GROUPS: EndpointGroup[] = [buildEndpoints];

// ---------------------------------------------------------------- main

async function main() {
  const options = readOptions();
  if (!options) return;
  const { smoke, pglite, sizes, duration, concurrency, dbUrl, poolMax } = options;
  const startedAt = new Date();
  const wallStarted = performance.now();
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
      if (options.demo[k] !== undefined) demoArgs.push(`--${k}`, options.demo[k]!);
    }
    const demo = await fillDemo(dataDir, demoArgs);
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
    const captureFile = path.join(dataDir, 'captured-sql.jsonl');
    const metricsToken = randomBytes(24).toString('base64url');
    children.push(
      await startChild(
        'server/main.ts',
        {
          ...benchPortalEnv({
            port,
            url: portalUrl,
            dataDir,
            // No SPA: the bench measures the API (the data folder has no index.html).
            webRoot: dataDir,
          }),
          DB_POOL_MAX: String(poolMax),
          ...databaseEnv,
          // The sign-in rows come from many addresses (X-Forwarded-For), as from many people.
          TRUST_PROXY: '1',
          METRICS_TOKEN: metricsToken,
          // The deliveries' receiver is on this machine (bench/bench-deliveries.ts).
          OUTBOUND_ALLOW_PRIVATE: 'true',
          // The dry run's SQL capture (bench/capture-queries.ts), PostgreSQL only.
          BENCH_CAPTURE_FILE: captureFile,
        },
        portalUrl,
        '/readyz',
        [
          ...(process.env.BENCH_PORTAL_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
          ...(db
            ? ['--import', pathToFileURL(path.join(root, 'bench/capture-queries.ts')).href]
            : []),
        ],
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
    // The bench's biggest publisher, or the demo's featured one; the bench's other big ones.
    const bigPublisherId = publisher.user.id;
    const bigPublisherIds = db
      ? (
          await db.query<{ id: string }>(
            `select id from users where email = any($1) order by email`,
            [
              Array.from(
                { length: Math.min(sizes.bigPublishers, sizes.publishers) },
                (_, i) => `publisher-${i + 1}@bench.test`,
              ),
            ],
          )
        ).rows.map((r) => r.id)
      : [bigPublisherId];
    const A = admin.access_token;
    const context = {
      portalUrl,
      adminToken: A,
      publisherToken: publisher.access_token,
      buyerToken: buyer.access_token,
      bigPublisherId,
      bigPublisherIds: bigPublisherIds.length ? bigPublisherIds : [bigPublisherId],
      leads: sizes.leads,
      publisherEmail: accounts.publisher,
      nextIp,
      signIn,
    };
    const kit = await rowKit(context);
    const endpoints = (await Promise.all(ENDPOINT_GROUPS.map((g) => g(context, kit)))).flat();
    // Webhooks and postbacks configured before any row: ingestion is measured with them on.
    // Earlier runs' receivers are gone: their endpoints would only collect refused retries.
    await db?.query(`delete from webhook_endpoints where url like 'http://127.0.0.1:%/hook'`);
    const outbound = await setUpOutbound({
      portalUrl,
      adminToken: A,
      publisherToken: publisher.access_token,
    });
    children.push({ stop: () => outbound.close() } as Child);
    const only = options.only?.split(',').map((o) => o.trim());
    const chosen = only ? endpoints.filter((e) => only.some((o) => e.name.includes(o))) : endpoints;
    const measureImport = !only || only.some((o) => 'csv import'.includes(o) || o === 'bulk');
    // The phases after the rows (PostgreSQL), chosen by the start of their name: `--only
    // deliveries`, `--only live` (which "deliveries" contains, so not by any substring).
    const phase = (name: string) =>
      db !== undefined && (!only || only.some((o) => name.startsWith(o)));
    const measureDeliveries = phase('deliveries');
    const measureLive = phase('live');
    if (chosen.length === 0 && !measureImport && !measureDeliveries && !measureLive)
      fail(`No endpoint name contains "${options.only}".`);

    // 3a. PostgreSQL: the dry run captures each list and report row's SQL (a few requests each,
    // drawn as the measured ones are), the bare server replays it beside the row, and
    // pg_stat_statements is read around the row's slices when PostgreSQL preloads it.
    const keys = new Map(chosen.map((e, i) => [e, String(i)]));
    let captured = new Map<string, ReplaySample[]>();
    let bareUrl: string | undefined;
    let adminSession: string | undefined;
    let dbTotal: (() => Promise<number>) | undefined;
    if (db) {
      const t = performance.now();
      const sqlRows = chosen.filter((e) => e.sql);
      captured = await captureRows({
        portalUrl,
        captureFile,
        samples: smoke ? 5 : 20,
        rows: await Promise.all(
          sqlRows.map(async (e) => ({ key: keys.get(e)!, source: (await e.request(1)).source })),
        ),
      });
      const statements = [...captured.values()].flat().map((x) => x.waves.flat().length);
      say(
        `\nCaptured the SQL of ${captured.size} of ${sqlRows.length} list and report rows in ${fmt((performance.now() - t) / 1000)} s (${fmt(statements.reduce((x, y) => x + y, 0) / Math.max(1, statements.length))} statements a request).`,
      );
      const replayFile = path.join(dataDir, 'replay.json');
      const replay: ReplayFile = { rows: Object.fromEntries(captured) };
      writeFileSync(replayFile, JSON.stringify(replay));
      adminSession = await latestSession(db, admin.user.id);
      const barePort = await freePort();
      bareUrl = `http://127.0.0.1:${barePort}`;
      children.push(
        await startChild(
          'bench/bare-server.ts',
          {
            ...process.env,
            BENCH_DATABASE_URL: dbUrl,
            BENCH_USER_ID: admin.user.id,
            BENCH_SESSION_ID: adminSession,
            BENCH_REPLAY_FILE: replayFile,
            BENCH_POOL_MAX: String(poolMax),
            PORT: String(barePort),
          },
          bareUrl,
          '/ready',
        ),
      );
      dbTotal = (await statStatements(db)) ?? undefined;
      say(
        dbTotal
          ? 'pg_stat_statements is preloaded: the database time per request under load is read too.'
          : 'pg_stat_statements is not preloaded (shared_preload_libraries): the SQL is timed by EXPLAIN ANALYZE only.',
      );
    }

    // 3. Each endpoint at each concurrency: one warm-up request, then the timed run, taking
    // turns with its references (bench-rows.ts).
    say(
      `\nLoad: ${chosen.length} endpoints × c=${concurrency.join(',')} × ${duration} s each, with /healthz${bareUrl ? ' and the bare route' : ''} in turns\n`,
    );
    for (const [i, level] of concurrency.entries()) {
      for (const e of chosen) {
        if (e.single && i > 0) continue;
        const c = e.single ? 1 : level;
        const key = keys.get(e)!;
        const row = await measureRow({
          portalUrl,
          endpoint: e,
          c,
          duration,
          bare: bareUrl && captured.has(key) ? { url: bareUrl, key } : undefined,
          dbTotal,
        });
        results.rows.push(row);
        const r = row;
        say(
          `  ${e.name.slice(0, 50).padEnd(50)} c=${String(c).padEnd(3)} ${fmt(r.rps).padStart(8)} req/s  p50 ${ms(r.p50).padStart(6)}  p95 ${ms(r.p95).padStart(6)} ms  errors ${r.errors}${r.bare?.errors ? `  bare errors ${r.bare.errors}` : ''}${r.firstError ? `  (${r.firstError.slice(0, 160)})` : ''}`,
        );
        // The deliveries an ingest row's calls made, sent before the next row is measured.
        if (db && e.name.startsWith('POST /api/v1/ingest/calls')) {
          r.deliveries = await deliveryCatchUp(db);
          say(`    deliveries: ${r.deliveries}`);
        }
      }
    }

    // 3c. The SQL's own time in the database: EXPLAIN ANALYZE of each row's captured samples.
    if (db && captured.size) {
      const t = performance.now();
      for (const e of chosen) {
        const samples = captured.get(keys.get(e)!);
        if (!samples) continue;
        const time = await explainTimes(db, samples).catch((err: Error) => err.message);
        for (const r of results.rows.filter((x) => x.endpoint === e.name)) {
          if (typeof time === 'string') r.dbError = time;
          else r.db = time;
        }
      }
      say(`\nEXPLAIN ANALYZE of the captured SQL in ${fmt((performance.now() - t) / 1000)} s.`);
    }

    // 3b. CSV import (issue 13): a file of 100,000 calls checked, imported, checked and
    // imported again (nothing changes), then one bulk action approving all of them.
    if (measureImport) {
      const rows = smoke ? 1_000 : 100_000;
      say(`\nCSV import of ${rows.toLocaleString('en-US')} rows, then a bulk approve of them…`);
      const figures = await benchImport({ portalUrl, token: A, rows, db, say });
      results.import = figures;
    }

    // 3c. Deliveries (issue 30): what the ingest rows sent (webhooks and postbacks on), then
    // 10,000 lead events to the local receiver at once, and 10,000 at 1,000 a second.
    if (db && measureDeliveries) {
      say(`\nDeliveries of the rows above: ${await earlierDeliveries(db, outbound.since)}.`);
      say('Deliveries: lead events → webhooks to a local receiver…');
      const events = smoke ? 1_000 : 10_000;
      for (const arrival of ['burst', 'steady'] as const) {
        results.rows.push(
          deliveriesRow(
            await benchDeliveries({
              db,
              outbound,
              publisherId: bigPublisherId,
              events,
              arrival,
              ratePerSecond: smoke ? 200 : 1000,
              portalUrl,
              say,
            }),
          ),
        );
      }
    }

    // 3d. Live streams (issue 32): --live-streams streams of GET /api/v1/live held by the portal
    // while the ingestion row's load runs at the highest --concurrency, and the time from each
    // postback's answer to its lead on the streams that see it (bench/bench-live.ts).
    if (db && measureLive) {
      const ingest = endpoints.find((e) => e.name === 'POST /api/v1/ingest/calls');
      if (!ingest) fail('The live row needs the POST /api/v1/ingest/calls row.');
      say(`\nLive: ${options.liveStreams} streams of GET /api/v1/live under the ingestion load…`);
      const figures = await benchLive({
        db,
        portalUrl,
        metricsToken,
        ingest,
        publisherEmail: accounts.publisher,
        tokens: new Map([
          [accounts.admin, A],
          [accounts.publisher, publisher.access_token],
        ]),
        signIn,
        streams: options.liveStreams,
        c: Math.max(...concurrency),
        duration,
        say,
      });
      results.live = figures;
      results.rows.push(liveRow(figures));
    }

    // 4. The point-read ladder: the same statement as GET /api/v1/me, from PostgreSQL's own
    // client to our route.
    if (db && !options.noLadder) {
      const serverError = await runLadder({
        adminUserId: admin.user.id,
        session: adminSession!,
        bareUrl: bareUrl!,
        dbUrl,
        poolMax,
        portalUrl,
        token: A,
        concurrency,
        duration,
        dataDir,
        results,
        say,
      });
      if (serverError) exitCode = 1;
    }
  } finally {
    await cleanup();
  }

  // 5. The table, the ladder, the JSON.
  exitCode = printResults(results, { concurrency, startedAt, exitCode });
  say(`Bench run took ${fmt((performance.now() - wallStarted) / 1000)} s.`);
  process.exit(exitCode);
}

main().catch((err) => {
  // Any error exits 1 (CI's smoke steps rely on it); a BenchError without its stack.
  if (err instanceof BenchError) {
    console.error(err.message);
    process.exit(1);
  }
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
