import { rmSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_ADMIN, type Portal, startPortal, tempDataDir } from '../test/fault-support.ts';

/**
 * Issue 19, item 1: instances started together on an empty PostgreSQL database all become
 * ready, with one admin (migrations, the settings row and the first admin run under one
 * advisory lock); a start that fails on a query says what PostgreSQL said.
 *
 * Each case uses a database of its own on the suite's PostgreSQL server (created and dropped
 * here); it runs in the PostgreSQL pass (TEST_DATABASE_URL) or with FAULT_TESTS=1.
 */
const serverUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const enabled = Boolean(process.env.TEST_DATABASE_URL || process.env.FAULT_TESTS);

const INSTANCES = 4;
const admin = new pg.Client({ connectionString: serverUrl });
const made: string[] = [];

async function freshDatabase(): Promise<string> {
  const name = `portal_startup_${process.pid}_${made.length}_${Date.now().toString(36)}`;
  await admin.query(`create database ${name}`);
  made.push(name);
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

describe.runIf(enabled)('start-up on one PostgreSQL database', () => {
  beforeAll(async () => {
    await admin.connect();
  });
  afterAll(async () => {
    for (const name of made) {
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
    }
    await admin.end();
  });

  it(`${INSTANCES} instances started at once on an empty database all become ready, with one admin`, async () => {
    const url = await freshDatabase();
    const dirs = Array.from({ length: INSTANCES }, () => tempDataDir());
    const started = await Promise.allSettled(
      // Four tsx start-ups at once on a loaded 2-core machine can pass 120 s.
      dirs.map((dataDir) => startPortal({ dataDir, databaseUrl: url, readyTimeoutMs: 240_000 })),
    );
    const portals = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    try {
      const failures = started.flatMap((s) =>
        s.status === 'rejected' ? [String((s.reason as Error).message).slice(0, 600)] : [],
      );
      expect(failures).toEqual([]);
      // Every instance answers, and signs the one admin in.
      for (const p of portals) {
        const res = await fetch(`${p.url}/auth/v1/token?grant_type=password`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(FAULT_ADMIN),
        });
        expect(res.status).toBe(200);
      }
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        const admins = await db.query("select email from users where role = 'admin'");
        expect(admins.rows.map((r) => r.email)).toEqual([FAULT_ADMIN.email]);
        const settings = await db.query('select count(*)::int as n from settings');
        expect(settings.rows[0].n).toBe(1);
      } finally {
        await db.end();
      }
    } finally {
      await Promise.all(portals.map((p: Portal) => p.kill('SIGTERM')));
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    }
  }, 360_000);

  it("a start that fails on a query prints PostgreSQL's own message and code", async () => {
    const url = await freshDatabase();
    // A table in the way of the first migration.
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query('create table audit_log (something text)');
    await db.end();
    const dataDir = tempDataDir();
    try {
      const error = await startPortal({ dataDir, databaseUrl: url }).then(
        () => null,
        (e: Error) => e.message,
      );
      expect(error).toContain('Start-up failed:');
      expect(error).toMatch(
        /caused by: relation "audit_log" already exists \(PostgreSQL code 42P07\)/,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
