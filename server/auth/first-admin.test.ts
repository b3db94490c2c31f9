import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/free-port.ts';
import { throwawayDatabase } from '../test/throwaway-db.ts';

// The real start-up (server/main.ts, what `npm start` runs after building the web app) on a
// fresh DATA_DIR: it prints the first admin, who can then sign in through /auth/v1/token.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let child: ChildProcess | undefined;
let output = '';
let base = '';
const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-first-start-'));
let dropDatabase: (() => Promise<void>) | undefined;

/** A fresh PostgreSQL database when TEST_DATABASE_URL is set, else '' (PGlite under DATA_DIR). */
async function freshDatabaseUrl(): Promise<string> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return '';
  const database = await throwawayDatabase(url, 'portal_test_first');
  dropDatabase = database.drop;
  return database.url;
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const databaseUrl = await freshDatabaseUrl();
  child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
      JWT_SECRET: '',
      REDIS_URL: '',
      SMTP_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => {
    output += String(d);
  });
  child.stderr!.on('data', (d) => {
    output += String(d);
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up banner:\n${output}`)), 100_000);
    const check = () => {
      if (/password:\s+\S+/.test(output) && output.includes('Portal ready')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child!.stdout!.on('data', check);
    child!.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

describe('first start', () => {
  it('prints an admin that can sign in through /auth/v1/token and is an admin at /api/v1/me', async () => {
    const email = /e-mail:\s+(\S+)/.exec(output)?.[1];
    const password = /password:\s+(\S+)/.exec(output)?.[1];
    expect(email).toBe('admin@localhost');
    expect(output).toContain('generated; shown only this once');

    const res = await fetch(`${base}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json;charset=UTF-8',
        'x-supabase-api-version': '2024-01-01',
      },
      body: JSON.stringify({ email, password, gotrue_meta_security: {} }),
    });
    expect(res.status).toBe(200);
    const session = await res.json();
    expect(session.user.email).toBe('admin@localhost');

    const me = await fetch(`${base}/api/v1/me`, {
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ role: 'admin', status: 'active' });

    const wrong = await fetch(`${base}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
      body: JSON.stringify({ email, password: `${password}x` }),
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).code).toBe('invalid_credentials');
  });
});
