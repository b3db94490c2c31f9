import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { signAccessToken } from '../auth/tokens.ts';
import { loadConfig } from '../config.ts';
import { type Database, openPostgres } from '../db/client.ts';
import { freePort } from '../test/free-port.ts';

/**
 * Issue 11, item 2: with the database unreachable, requests answer 503 service_unavailable with
 * Retry-After (never 500), on /api and /auth/v1 alike. The database here is a PostgreSQL URL on
 * a port nobody listens on: connections are refused, as when PostgreSQL is down.
 */
describe('database down', () => {
  let app: FastifyInstance;
  let database: Database;
  let dataDir: string;
  let secret: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'portal-dbdown-'));
    secret = randomBytes(32).toString('hex');
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      JWT_SECRET: secret,
      LOG_LEVEL: 'silent',
    });
    database = openPostgres(`postgres://postgres@127.0.0.1:${await freePort()}/portal`);
    app = await buildApp({ config, database, logger: false, webRoot: path.join(dataDir, 'web') });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers the API with 503 service_unavailable and Retry-After', async () => {
    const { token } = await signAccessToken(secret, {
      userId: randomUUID(),
      email: 'someone@example.test',
      sessionId: randomUUID(),
      amr: [{ method: 'password', timestamp: Math.floor(Date.now() / 1000) }],
      userMetadata: {},
      expiresIn: 3600,
    });
    for (const req of [
      { method: 'GET' as const, url: '/api/v1/public/settings' },
      {
        method: 'POST' as const,
        url: '/api/v1/admin/payouts',
        headers: { authorization: `Bearer ${token}` },
        payload: { publisher_id: randomUUID(), amount: 5 },
      },
    ]) {
      const res = await app.inject(req);
      expect(res.statusCode, req.url).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json().error.code).toBe('service_unavailable');
      expect(res.json().error.message).toMatch(/database is busy or not reachable.*try again/i);
    }
  });

  it('answers /auth/v1 with a GoTrue 503 and Retry-After', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      headers: { 'x-supabase-api-version': '2024-01-01' },
      payload: { email: 'someone@example.test', password: 'secret-pass-1' },
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json().code).toBe('service_unavailable');
  });

  it('readyz says the database does not answer', async () => {
    expect((await app.inject('/readyz')).statusCode).toBe(503);
  });
});
