// The embedded database keeps its data: one owner per data folder, admin commands through the
// running portal, backups taken while it serves, restores into a new folder and into
// PostgreSQL, and damaged backups refused. Real processes, real PGlite, real PostgreSQL.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { claimDataDir, DataDirBusyError } from '../db/data-dir-owner.ts';
import { ensureSettings } from '../db/settings.ts';
import { appOn } from '../test/build-test-app.ts';
import { NO_OUTSIDE_SERVICES } from '../test/fault-support.ts';
import { freePort } from '../test/free-port.ts';
import { currentTotp } from '../test/rfc6238.ts';
import { throwawayDatabase } from '../test/throwaway-db.ts';
import type { Manifest } from './backup.ts';
import { writeBackup } from './backup.ts';
import { RestoreRefusedError, restoreBackup } from './restore.ts';
import { extractTarGz } from './tar.ts';

const root = path.resolve(import.meta.dirname, '../..');
const ADMIN = { email: 'owner@backup.test', password: 'owner-password-1' };
const OPS = { email: 'ops@backup.test', password: 'ops-password-1' };
const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const temps: string[] = [];
const tempDir = (name: string) => {
  const d = mkdtempSync(path.join(tmpdir(), `pdd-${name}-`));
  temps.push(d);
  return d;
};

type Run = { code: number | null; out: string; ms: number };

/** Runs `node --import tsx <script> ...args` to its end. */
function runNode(script: string, args: string[], env: Record<string, string>): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: root,
      env: { ...process.env, ...baseEnv, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => resolve({ code, out, ms: Date.now() - started }));
  });
}

const baseEnv: Record<string, string> = {
  NODE_ENV: 'development',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  DATABASE_URL: '',
  ...NO_OUTSIDE_SERVICES,
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
};

/** Every file under dir with its size and mtime: "nothing was written" compares two of these. */
function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const s = statSync(p);
        out.push(`${path.relative(dir, p)} ${s.size} ${s.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return out.sort();
}

async function signIn(
  base: string | ((p: string, init?: RequestInit) => Promise<Response>),
  who = OPS,
) {
  const f =
    typeof base === 'string' ? (p: string, i?: RequestInit) => fetch(`${base}${p}`, i) : base;
  const res = await f('/auth/v1/token?grant_type=password', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  return {
    status: res.status,
    token: res.ok ? ((await res.json()) as { access_token: string }).access_token : '',
  };
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The portal started on restored data, in this process: sign-in, a list, a file. */
async function serveRestored(env: Record<string, string>, manifest: Manifest) {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_URL: 'http://localhost:3000',
    ...env,
  });
  const database = await openDatabase(config);
  try {
    await database.migrate();
    await ensureSettings(database.db);
    // Every row count as the manifest says.
    for (const [table, n] of Object.entries(manifest.database.tables)) {
      const [schema, name] = table.split('.');
      const rows = await database.db.execute(
        `select count(*)::int as n from "${schema}"."${name}"`,
      );
      const got =
        (rows as unknown as { rows: { n: number }[] }).rows?.[0]?.n ??
        (rows as unknown as { n: number }[])[0]?.n;
      expect(got, table).toBe(n);
    }
    const app = await appOn(config, database);
    try {
      const inject = async (p: string, init?: RequestInit) => {
        const r = await app.inject({
          method: (init?.method ?? 'GET') as 'GET',
          url: p,
          headers: init?.headers as Record<string, string>,
          payload: init?.body as string,
        });
        return new Response(r.body, { status: r.statusCode });
      };
      const { status, token } = await signIn(inject);
      expect(status).toBe(200);
      const list = await app.inject({
        url: '/api/v1/admin/compliance?page=1&per_page=5',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(list.statusCode).toBe(200);
      const urls = [...list.body.matchAll(/"url":"(\/files\/[^"]+)"/g)].map(
        (m) => JSON.parse(`"${m[1]}"`) as string,
      );
      expect(urls.length).toBeGreaterThan(0);
      const file = await app.inject({ url: urls[0]! });
      expect(file.statusCode).toBe(200);
      const digest = sha256(file.rawPayload);
      expect(manifest.files.list.map((f) => f.sha256)).toContain(digest);
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

const pgDatabase = () => throwawayDatabase(PG_ADMIN_URL, 'portal_restore');

afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

describe.runIf(!process.env.TEST_DATABASE_URL)(
  'the embedded database under a running portal',
  () => {
    let dataDir: string;
    let url: string;
    let portal: ChildProcess;
    let portalLog = '';
    let backupFile: string;
    let manifest: Manifest;

    beforeAll(async () => {
      dataDir = tempDir('owner');
      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      portal = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        cwd: root,
        env: {
          ...process.env,
          ...baseEnv,
          PORT: String(port),
          PUBLIC_URL: url,
          DATA_DIR: dataDir,
          WEB_ROOT: path.join(dataDir, 'no-web'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      portal.stdout?.on('data', (d) => {
        portalLog += d;
      });
      portal.stderr?.on('data', (d) => {
        portalLog += d;
      });
      const deadline = Date.now() + 180_000;
      for (;;) {
        if (portal.exitCode !== null) throw new Error(`portal exited:\n${portalLog}`);
        if (Date.now() > deadline) throw new Error(`portal not ready:\n${portalLog}`);
        const ok = await fetch(`${url}/readyz`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
        await new Promise((r) => setTimeout(r, 250));
      }
    }, 240_000);

    afterAll(() => {
      if (portal && portal.exitCode === null) portal.kill('SIGKILL');
    });

    it('refuses a second start on the same folder at once, with one line, writing nothing', async () => {
      const before = listing(dataDir);
      for (const script of ['server/main.ts', 'scripts/start.ts']) {
        const r = await runNode(script, [], { DATA_DIR: dataDir, PORT: String(await freePort()) });
        expect(r.code).toBe(1);
        const line = r.out.trim();
        expect(line.split('\n')).toHaveLength(1);
        expect(line).toContain(`The data folder ${dataDir} is in use by process ${portal.pid}`);
        expect(line).toContain('stop that process first');
      }
      expect(listing(dataDir)).toEqual(before);
      // In this process too: opening the folder is refused before PGlite touches it.
      await expect(claimDataDir(dataDir)).rejects.toBeInstanceOf(DataDirBusyError);
      expect(listing(dataDir)).toEqual(before);
    }, 240_000);

    it('creates an admin through the running portal, who signs in at once', async () => {
      expect((await signIn(url)).status).toBe(400);
      const r = await runNode(
        'scripts/create-admin.ts',
        ['--email', OPS.email, '--password', OPS.password],
        { DATA_DIR: dataDir },
      );
      expect(r.out).toContain(
        `Admin ${OPS.email} created (through the portal running on ${dataDir})`,
      );
      expect(r.code).toBe(0);
      expect((await signIn(url)).status).toBe(200);
      // The same e-mail again: the portal's sentence, exit 1.
      const again = await runNode(
        'scripts/create-admin.ts',
        ['--email', OPS.email, '--password', OPS.password],
        { DATA_DIR: dataDir },
      );
      expect(again.code).toBe(1);
      expect(again.out).toContain('already exists');
    }, 120_000);

    it('resets an admin’s two-factor sign-in through the running portal (create-admin --reset-mfa)', async () => {
      const { token } = await signIn(url);
      const auth = (t: string) => ({
        authorization: `Bearer ${t}`,
        'content-type': 'application/json',
      });
      const post = async (p: string, t: string, body: unknown) =>
        (
          await fetch(`${url}${p}`, {
            method: 'POST',
            headers: auth(t),
            body: JSON.stringify(body),
          })
        ).json();
      const factor = await post('/auth/v1/factors', token, { factor_type: 'totp' });
      const challenge = await post(`/auth/v1/factors/${factor.id}/challenge`, token, {});
      const verified = await post(`/auth/v1/factors/${factor.id}/verify`, token, {
        challenge_id: challenge.id,
        code: currentTotp(factor.totp.secret),
      });
      expect(verified.access_token).toBeTruthy();
      const stats = async () =>
        (await fetch(`${url}/api/v1/admin/stats`, { headers: auth((await signIn(url)).token) }))
          .status;
      expect(await stats()).toBe(403); // a password alone no longer reaches the admin API
      const r = await runNode('scripts/create-admin.ts', ['--reset-mfa', OPS.email], {
        DATA_DIR: dataDir,
      });
      expect(r.out).toContain(
        `Two-factor sign-in of ${OPS.email} reset: 1 authenticator app removed.`,
      );
      expect(r.out).toContain(`(through the portal running on ${dataDir})`);
      expect(r.code).toBe(0);
      expect(await stats()).toBe(200);
      const unknown = await runNode('scripts/create-admin.ts', ['--reset-mfa', 'nobody@x.test'], {
        DATA_DIR: dataDir,
      });
      expect(unknown.code).toBe(1);
      expect(unknown.out).toContain('No account has the e-mail nobody@x.test.');
    }, 120_000);

    it('fills demo data through the running portal', async () => {
      const r = await runNode(
        'scripts/demo-data.ts',
        ['--leads', '30', '--publishers', '4', '--buyers', '2'],
        { DATA_DIR: dataDir },
      );
      expect(r.out).toContain('Demo data ready');
      expect(r.code).toBe(0);
      const { token } = await signIn(url);
      const list = await fetch(`${url}/api/v1/admin/compliance?page=1&per_page=5`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(list.status).toBe(200);
      expect(await list.text()).toContain('/files/');
    }, 240_000);

    it('backs up while the portal serves and writes go on', async () => {
      backupFile = path.join(tempDir('backup'), 'b.tar.gz');
      const { token } = await signIn(url, ADMIN);
      let writes = 0;
      const failures = new Set<string>();
      let stop = false;
      const writer = (async () => {
        while (!stop) {
          const res = await fetch(`${url}/api/v1/admin/offers`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ title: `Offer ${writes}`, vertical: 'Backups', payout: 12.5 }),
          });
          if (res.status === 201) writes++;
          else {
            failures.add(`${res.status} ${(await res.text()).slice(0, 200)}`);
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      })();
      const r = await runNode('scripts/backup.ts', ['--out', backupFile], { DATA_DIR: dataDir });
      stop = true;
      await writer;
      expect(r.out).toContain(`Backup written: ${backupFile}`);
      expect(r.code).toBe(0);
      expect(r.out).toContain('snapshot taken by the running portal');
      expect([...failures]).toEqual([]);
      expect(writes).toBeGreaterThan(0);

      const dir = tempDir('manifest');
      await extractTarGz(backupFile, dir);
      manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
      expect(manifest.source).toEqual({ database: 'pglite', files: 'local' });
      expect(manifest.migration.latest).toMatch(/^\d{4}_/);
      expect(manifest.database.tables['public.users']).toBeGreaterThanOrEqual(8);
      expect(manifest.files.count).toBeGreaterThan(0);
      for (const f of manifest.files.list) {
        expect(sha256(readFileSync(path.join(dir, 'files', f.key)))).toBe(f.sha256);
        expect(sha256(readFileSync(path.join(dataDir, 'storage', f.key)))).toBe(f.sha256);
      }
      console.log(
        `backup: ${statSync(backupFile).size} bytes in ${r.ms} ms with ${writes} sign-ins meanwhile`,
      );
    }, 240_000);

    it('leaves no stale lock when the portal is killed with SIGKILL, and keeps acknowledged writes', async () => {
      const exited = new Promise((r) => portal.once('exit', r));
      portal.kill('SIGKILL');
      await exited;
      expect(existsSync(path.join(dataDir, 'portal.sock'))).toBe(true); // the file stays...
      const config = loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        JWT_SECRET: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'silent',
      });
      const database = await openDatabase(config); // ...but nobody answers on it: taken over
      try {
        const rows = await database.db.execute(
          `select count(*)::int as n from users where email = '${OPS.email}'`,
        );
        expect(JSON.stringify(rows)).toContain('"n":1');
      } finally {
        await database.close();
      }
    }, 120_000);

    it('restores into a new folder; the portal serves the restored data', async () => {
      const target = tempDir('restored');
      const config = loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: target,
        JWT_SECRET: randomBytes(32).toString('hex'),
      });
      const result = await restoreBackup({ config, file: backupFile });
      expect(result.rows).toBe(Object.values(manifest.database.tables).reduce((a, b) => a + b, 0));
      expect(result.files.restored).toBe(manifest.files.count);
      await serveRestored({ DATA_DIR: target }, manifest);

      // Not again into the same, now non-empty, folder.
      const again = await runNode('scripts/restore.ts', [backupFile], { DATA_DIR: target });
      expect(again.code).toBe(1);
      expect(again.out).toContain('already holds a database');
      expect(again.out).toContain('--force');
    }, 240_000);

    it('restores into a fresh PostgreSQL database (the move to PostgreSQL)', async () => {
      const db = await pgDatabase();
      try {
        const files = tempDir('pgfiles');
        const config = loadConfig({
          NODE_ENV: 'test',
          DATA_DIR: files,
          DATABASE_URL: db.url,
          JWT_SECRET: randomBytes(32).toString('hex'),
        });
        const result = await restoreBackup({ config, file: backupFile });
        expect(result.files.restored).toBe(manifest.files.count);
        await serveRestored({ DATA_DIR: files, DATABASE_URL: db.url }, manifest);
        // The database now has data: refused without --force, replaced with it.
        await expect(
          restoreBackup({ config: { ...config, dataDir: tempDir('pgfiles2') }, file: backupFile }),
        ).rejects.toThrow(/already has the portal's tables/);
        const forced = await restoreBackup({
          config: { ...config, dataDir: tempDir('pgfiles3') },
          file: backupFile,
          force: true,
        });
        expect(forced.rows).toBe(result.rows);
      } finally {
        await db.drop();
      }
    }, 240_000);

    it('refuses a truncated or corrupted backup and restores nothing', async () => {
      const whole = readFileSync(backupFile);
      const truncated = path.join(tempDir('bad'), 'truncated.tar.gz');
      writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length * 0.6)));
      const corrupted = path.join(tempDir('bad'), 'corrupted.tar.gz');
      const flipped = Buffer.from(whole);
      for (let i = 0; i < 16; i++) flipped[Math.floor(flipped.length / 2) + i * 7]! ^= 0xff;
      writeFileSync(corrupted, flipped);
      for (const file of [truncated, corrupted]) {
        const target = tempDir('nothing');
        const config = loadConfig({
          NODE_ENV: 'test',
          DATA_DIR: target,
          JWT_SECRET: randomBytes(32).toString('hex'),
        });
        const err = await restoreBackup({ config, file }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(RestoreRefusedError);
        expect((err as Error).message).toMatch(
          /is damaged or incomplete: .*Nothing was restored\./,
        );
        expect(readdirSync(target)).toEqual([]);
      }
    }, 240_000);
  },
);

describe.runIf(process.env.TEST_DATABASE_URL)('a backup of a PostgreSQL portal', () => {
  it('is taken while it serves and restores into a new embedded folder', async () => {
    const db = await pgDatabase();
    const files = tempDir('pgsrc');
    try {
      const config = loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: files,
        DATABASE_URL: db.url,
        JWT_SECRET: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'silent',
      });
      const database = await openDatabase(config);
      await database.migrate();
      await ensureSettings(database.db);
      const app = await appOn(config, database);
      const { createAdmin } = await import('../modules/accounts/admin-account.service.ts');
      const { seedDemoData } = await import('../demo/demo-seed.service.ts');
      await createAdmin(database.db, OPS);
      await seedDemoData({
        db: database.db,
        storage: app.storage,
        password: 'demo-pass-1',
        size: { leads: 20, publishers: 4, buyers: 2 },
      });
      let stop = false;
      let writes = 0;
      const inject = async (p: string, init?: RequestInit) => {
        const r = await app.inject({
          method: 'POST',
          url: p,
          headers: init?.headers as Record<string, string>,
          payload: init?.body as string,
        });
        return new Response(r.body, { status: r.statusCode });
      };
      const writer = (async () => {
        while (!stop) if ((await signIn(inject)).status === 200) writes++;
      })();
      const out = path.join(tempDir('pgbackup'), 'pg.tar.gz');
      const backup = await writeBackup({ config, out });
      stop = true;
      await writer;
      await app.close();
      await database.close();
      expect(backup.manifest.source.database).toBe('postgres');
      expect(writes).toBeGreaterThan(0);
      const target = tempDir('pgtoembedded');
      const targetConfig = loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: target,
        JWT_SECRET: randomBytes(32).toString('hex'),
      });
      const restored = await restoreBackup({ config: targetConfig, file: out });
      expect(restored.files.restored).toBe(backup.manifest.files.count);
      await serveRestored({ DATA_DIR: target }, backup.manifest);
    } finally {
      await db.drop();
    }
  }, 240_000);
});
