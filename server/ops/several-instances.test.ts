import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSmtpServer, type TestSmtpServer } from '../mail/test-smtp.ts';
import {
  type Cluster,
  checkExactlyOnce,
  FAULT_ADMIN,
  type Portal,
  payoutsByNote,
  pidOfLocalPort,
  setUpPayee,
  sleep,
  startCluster,
  startPortal,
  tempDataDir,
  writeLoad,
} from '../test/fault-support.ts';
import { pngFile } from '../test/fixtures.ts';
import { freePort } from '../test/free-port.ts';

/**
 * Issue 19: three instances on one throwaway PostgreSQL cluster, with a throwaway Redis, the
 * repository's test SMTP server and an S3 test server (s3rver), behind haproxy running the
 * repository's deploy/haproxy.cfg. Its own CI step (SEVERAL_INSTANCES_TEST=1, .ci/run).
 */
const enabled = Boolean(process.env.SEVERAL_INSTANCES_TEST);
const root = path.resolve(import.meta.dirname, '../..');
const DRAIN_SECONDS = 3;
const json = { 'content-type': 'application/json' };
const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;

type Redis = { url: string; stop(): Promise<void>; start(): Promise<void> };

async function startRedis(port: number): Promise<Redis> {
  let child: ChildProcess | undefined;
  const start = async () => {
    const c = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', ''], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = c;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const t = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 15_000);
      c.stdout?.on('data', (d) => {
        out += d;
        if (out.includes('Ready to accept connections')) {
          clearTimeout(t);
          resolve();
        }
      });
      c.once('exit', () => reject(new Error(`redis-server exited: ${out}`)));
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    stop: async () => {
      const c = child;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await exited;
    },
  };
}

async function signIn(url: string, forwardedFor: string, body = FAULT_ADMIN) {
  const started = performance.now();
  const res = await fetch(`${url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { ...json, 'x-forwarded-for': forwardedFor },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, ms: performance.now() - started, body: text };
}

describe.runIf(enabled)('three instances behind haproxy (deploy/haproxy.cfg)', () => {
  let cluster: Cluster;
  let redis: Redis;
  let smtp: TestSmtpServer;
  let s3: S3rver;
  let s3Dir: string;
  let haproxy: ChildProcess;
  let lb: string;
  const ports: number[] = [];
  const dirs: string[] = [];
  const portals: Portal[] = [];
  let env: NodeJS.ProcessEnv;
  let adminToken: string;
  let payee: { token: string; publisherId: string };
  const suiteStarted = Date.now();

  /** A query on the portals' database (cluster.query reads the maintenance database). */
  const query = async <T extends pg.QueryResultRow>(sql: string, params?: unknown[]) => {
    const c = new pg.Client({ connectionString: cluster.url });
    await c.connect();
    try {
      return (await c.query<T>(sql, params)).rows;
    } finally {
      await c.end();
    }
  };

  const start = (i: number) =>
    startPortal({
      dataDir: dirs[i]!,
      databaseUrl: cluster.url,
      port: ports[i],
      env,
      readyTimeoutMs: 240_000,
    });

  beforeAll(async () => {
    [cluster, smtp, redis] = await Promise.all([
      startCluster(),
      startTestSmtpServer({ slowMs: 800 }),
      freePort().then(startRedis),
    ]);
    s3Dir = mkdtempSync(path.join(tmpdir(), 'portal-s3-'));
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: 'portal-ops' }],
    });
    const { port: s3Port } = await s3.run();
    env = {
      REDIS_URL: redis.url,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Portal <no-reply@ops.test>',
      S3_BUCKET: 'portal-ops',
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      TRUST_PROXY: '1',
      SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS),
      DB_POOL_MAX: '8',
      AUTH_RATE_LIMIT_TOKEN: '20',
      LOG_LEVEL: process.env.OPS_LOG_LEVEL ?? 'warn',
      // No JWT_SECRET: the instances share the first one's through the database.
      JWT_SECRET: '',
    };
    for (let i = 0; i < 3; i++) {
      ports.push(await freePort());
      dirs.push(tempDataDir());
    }
    // All at once, on an empty database.
    portals.push(...(await Promise.all([0, 1, 2].map(start))));
    const lbPort = await freePort();
    lb = `http://127.0.0.1:${lbPort}`;
    haproxy = spawn('haproxy', ['-f', path.join(root, 'deploy/haproxy.cfg'), '-db'], {
      env: {
        ...process.env,
        LB_BIND: `127.0.0.1:${lbPort}`,
        PORTAL_1: `127.0.0.1:${ports[0]}`,
        PORTAL_2: `127.0.0.1:${ports[1]}`,
        PORTAL_3: `127.0.0.1:${ports[2]}`,
      },
      stdio: 'ignore',
    });
    for (let n = 0; ; n++) {
      const ok = await fetch(`${lb}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (n > 100) throw new Error('haproxy did not answer');
      await sleep(100);
    }
    const signedIn = await signIn(lb, randomIp());
    expect(signedIn.status).toBe(200);
    adminToken = JSON.parse(signedIn.body).access_token;
    payee = await setUpPayee(lb);
  }, 240_000);

  afterAll(async () => {
    haproxy?.kill('SIGKILL');
    await Promise.all(portals.map((p) => p.kill('SIGKILL')));
    await Promise.all([redis?.stop(), smtp?.close(), s3?.close(), cluster?.destroy()]);
    for (const d of [...dirs, s3Dir]) if (d) rmSync(d, { recursive: true, force: true });
    console.log(`several instances: ${((Date.now() - suiteStarted) / 1000).toFixed(0)} s in all`);
  });

  it('all three started at once on an empty database: one admin, one shared key', async () => {
    const admins = await query<{ email: string }>("select email from users where role = 'admin'");
    expect(admins.map((a) => a.email)).toEqual([FAULT_ADMIN.email]);
    // No JWT_SECRET given: a token signed by one instance is accepted by every instance.
    for (const p of portals) {
      const me = await fetch(`${p.url}/api/v1/me`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(me.status, p.url).toBe(200);
    }
    const beats = await query<{ n: number }>('select count(*)::int as n from instance_heartbeats');
    expect(beats[0]!.n).toBe(3);
    expect(portals[0]!.output()).toContain('Limits:   Redis at');
  });

  let mailIds: string[] = [];
  let killedAt = 0;
  /** Seconds from the kill until every mail had arrived (watched in the background). */
  let deliveredAfter: number | undefined;
  const messageIdOf = (m: { headers: Map<string, string> }) => m.headers.get('message-id') ?? '';
  const wantedIds = () => mailIds.map((id) => `<outbox-${id}@ops.test>`);
  it('an instance killed while sending: another claims its mails within a minute (checked at the end)', async () => {
    const rows = await query<{ id: string }>(
      `insert into mail_outbox ("to", subject, text, html)
       select 'slow-' || g || '@crash.test', 'Crash ' || g, 'text', '<p>html</p>'
         from generate_series(1, 4) g returning id`,
    );
    mailIds = rows.map((r) => r.id);
    let sender: { to: string; remotePort: number } | undefined;
    for (let n = 0; n < 100 && !sender; n++) {
      sender = smtp.rcptClients.find((c) => c.to.endsWith('@crash.test'));
      if (!sender) await sleep(100);
    }
    expect(sender, 'no instance started sending').toBeDefined();
    const pid = pidOfLocalPort(
      sender!.remotePort,
      portals.map((p) => p.child.pid!),
    );
    const i = portals.findIndex((p) => p.child.pid === pid);
    expect(i, 'the sending process').toBeGreaterThanOrEqual(0);
    await portals[i]!.kill('SIGKILL');
    killedAt = Date.now();
    void (async () => {
      while (deliveredAfter === undefined && Date.now() - killedAt < 300_000) {
        const got = new Set(smtp.received.map(messageIdOf));
        if (wantedIds().every((w) => got.has(w))) deliveredAfter = (Date.now() - killedAt) / 1000;
        await sleep(250);
      }
    })();
    portals[i] = await start(i);
  }, 300_000);

  it('a file uploaded through the balancer is read through every instance (S3)', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(pngFile)], { type: 'image/png' }), 'logo.png');
    const up = await fetch(`${lb}/api/v1/admin/settings/logo`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${adminToken}` },
      body: form,
    });
    expect(up.status).toBe(200);
    const logoUrl = ((await up.json()) as { logo_url: string }).logo_url;
    const bodies = [];
    for (const p of portals) {
      const res = await fetch(`${p.url}${logoUrl}`);
      expect(res.status, p.url).toBe(200);
      bodies.push(Buffer.from(await res.arrayBuffer()).toString('base64'));
    }
    expect(new Set(bodies).size).toBe(1);
  });

  it('a client writing its own X-Forwarded-For is still limited (TRUST_PROXY=1)', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 30; n++) {
      const r = await signIn(lb, randomIp(), {
        email: `nobody-${n}-${randomBytes(3).toString('hex')}@spoof.test`,
        password: 'wrong-password-1',
      });
      statuses.push(r.status);
    }
    // 20 per client (AUTH_RATE_LIMIT_TOKEN), shared by the instances through Redis.
    expect(statuses.slice(0, 18).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(22).every((s) => s === 429)).toBe(true);
  }, 120_000);

  it('Redis on a closed port: sign-in answers in its normal time, the outage is logged once, recovery needs no restart', async () => {
    const p = portals[0]!;
    const timed = async () => {
      const out: number[] = [];
      for (let n = 0; n < 5; n++) {
        const r = await signIn(p.url, randomIp());
        expect(r.status).toBe(200);
        out.push(r.ms);
      }
      return out;
    };
    const up = await timed();
    const outagesBefore = p.output().split('Redis is unavailable').length;
    await redis.stop();
    const down = await timed();
    const metric = async () => {
      const text = await (await fetch(`${p.url}/metrics`)).text();
      return /^rate_limit_redis_up (\d)/m.exec(text)?.[1];
    };
    expect(await metric()).toBe('0');
    console.log(
      `sign-in with Redis up: ${up.map((m) => m.toFixed(0)).join(', ')} ms; Redis away: ${down.map((m) => m.toFixed(0)).join(', ')} ms`,
    );
    expect(Math.max(...down)).toBeLessThan(Math.max(...up) + 250);
    expect(p.output().split('Redis is unavailable').length - outagesBefore).toBe(1);
    await redis.start();
    let back: string | undefined;
    for (let n = 0; n < 50 && back !== '1'; n++) {
      await sleep(200);
      back = await metric();
    }
    expect(back).toBe('1');
  }, 60_000);

  it('a rolling SIGTERM restart under load: 0 failed requests, every acknowledged write present', async () => {
    let stop = false;
    const load = writeLoad({
      url: () => lb,
      token: payee.token,
      publisherId: payee.publisherId,
      concurrency: 4,
      stop: () => stop,
    });
    const reads = new Map<string, number>();
    const reader = (async () => {
      while (!stop) {
        const status = await fetch(`${lb}/api/v1/me`, {
          headers: { authorization: `Bearer ${adminToken}` },
        }).then(
          (r) => String(r.status),
          () => 'network',
        );
        reads.set(status, (reads.get(status) ?? 0) + 1);
      }
    })();
    await sleep(1000);
    for (let i = 0; i < 3; i++) {
      const p = portals[i]!;
      const exited = new Promise((r) => p.child.once('exit', r));
      p.child.kill('SIGTERM');
      await sleep(200);
      // Draining: not ready any more, but alive and serving.
      expect((await fetch(`${p.url}/readyz`)).status).toBe(503);
      expect((await fetch(`${p.url}/healthz`)).status).toBe(200);
      const me = await fetch(`${p.url}/api/v1/me`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(me.status).toBe(200);
      await exited;
      expect(p.child.exitCode).toBe(0);
      portals[i] = await start(i);
      // haproxy takes it back after two good checks a second apart.
      await sleep(2500);
    }
    stop = true;
    await Promise.all([load.done, reader]);
    const writes = [...load.report.statuses.values()].reduce((a, b) => a + b, 0);
    const readCount = [...reads.values()].reduce((a, b) => a + b, 0);
    const failedWrites = writes - (load.report.statuses.get('201') ?? 0);
    const failedReads = readCount - (reads.get('200') ?? 0);
    console.log(
      `rolling restart: ${writes + readCount} requests (${writes} writes, ${readCount} reads), ${failedWrites + failedReads} failed`,
    );
    expect(Object.fromEntries(load.report.statuses)).toEqual({ '201': writes });
    expect(Object.fromEntries(reads)).toEqual({ '200': readCount });
    const check = checkExactlyOnce(
      load.report,
      await payoutsByNote(lb, payee.token, payee.publisherId),
    );
    expect(check).toEqual({ lost: [], duplicated: [], phantom: [] });
  }, 900_000);

  it('the killed instance’s mails were all delivered, each with its stable Message-ID', async () => {
    const idOf = messageIdOf;
    const want = wantedIds();
    for (let n = 0; n < 600 && deliveredAfter === undefined; n++) await sleep(100);
    const received = smtp.received.filter((m) => want.includes(idOf(m)));
    expect(new Set(received.map(idOf))).toEqual(new Set(want));
    // Only the mail in flight at the kill may arrive twice, recognisable by its Message-ID.
    expect(received.length).toBeLessThanOrEqual(want.length + 1);
    console.log(`mail after a crash: all delivered ${deliveredAfter?.toFixed(0)} s after the kill`);
    // The claim lease is 40 s; the rest is sending (0.8 s a mail here) and the poll interval.
    expect(deliveredAfter).toBeLessThan(60);
    const rows = await query<{ status: string }>(
      'select status from mail_outbox where id = any($1)',
      [mailIds],
    );
    expect(rows.map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
  }, 90_000);

  it('a second SIGTERM exits at once, without waiting for the drain', async () => {
    const p = portals[2]!;
    const exited = new Promise((r) => p.child.once('exit', r));
    p.child.kill('SIGTERM');
    await sleep(300);
    const second = Date.now();
    p.child.kill('SIGTERM');
    await exited;
    // Exit code 1 and this line: the second signal ended it (a drained exit is 0).
    expect(p.child.exitCode).toBe(1);
    expect(p.output()).toContain('second signal: exiting now');
    console.log(`second SIGTERM: exited ${Date.now() - second} ms after it`);
  });
});
