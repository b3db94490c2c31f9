import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { appOn, buildTestApp, type TestApp } from '../test/build-test-app.ts';

let base: TestApp;
beforeAll(async () => {
  base = await buildTestApp();
});
afterAll(() => base?.close());

/** The whole app with these variables, on the file's one database (a new one per app is slow). */
async function buildTestAppWith(env: Record<string, string>) {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: base.config.dataDir,
    JWT_SECRET: base.config.jwtSecret,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const app = await appOn(config, base.database);
  await app.ready();
  return { app, close: () => app.close() };
}

/** Issue 11, item 10: who may read /metrics, and /api/docs that can be turned off. */
describe('operations endpoints', () => {
  const token = 'metrics-token-0123456789abcdef';

  it('production without METRICS_TOKEN or METRICS_PORT refuses /metrics', async () => {
    const t = await buildTestAppWith({ NODE_ENV: 'production' });
    try {
      const res = await t.app.inject('/metrics');
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toMatch(/METRICS_TOKEN or METRICS_PORT/);
      expect(res.body).not.toContain('http_requests_total');
    } finally {
      await t.close();
    }
  });

  it('with METRICS_TOKEN, /metrics answers only the right bearer token', async () => {
    const t = await buildTestAppWith({ NODE_ENV: 'production', METRICS_TOKEN: token });
    try {
      const none = await t.app.inject('/metrics');
      expect(none.statusCode).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Bearer');
      const wrong = await t.app.inject({
        url: '/metrics',
        headers: { authorization: `Bearer ${token}x` },
      });
      expect(wrong.statusCode).toBe(401);
      const right = await t.app.inject({
        url: '/metrics',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(right.statusCode).toBe(200);
      expect(right.body).toContain('process_cpu_seconds_total');
    } finally {
      await t.close();
    }
  });

  it('with METRICS_PORT, /metrics moves to its own port (with the token when one is set)', async () => {
    const t = await buildTestAppWith({
      NODE_ENV: 'production',
      METRICS_PORT: '0',
      METRICS_TOKEN: token,
      HOST: '127.0.0.1',
    });
    try {
      expect((await t.app.inject('/metrics')).statusCode).toBe(404);
      const address = t.app.metricsServer?.address();
      expect(address && typeof address === 'object').toBe(true);
      const url = `http://127.0.0.1:${(address as { port: number }).port}`;
      expect((await fetch(`${url}/metrics`)).status).toBe(401);
      const ok = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('http_requests_total');
      expect((await fetch(`${url}/api/v1/settings`)).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('development keeps /metrics open; API_DOCS=false turns /api/docs off', async () => {
    const t = await buildTestAppWith({ NODE_ENV: 'development', API_DOCS: 'false' });
    try {
      expect((await t.app.inject('/metrics')).statusCode).toBe(200);
      const docs = await t.app.inject('/api/docs');
      expect(docs.statusCode).toBe(404);
      expect(docs.json().error.code).toBe('not_found');
    } finally {
      await t.close();
    }
  });

  it('serves /api/docs by default', async () => {
    const t = await buildTestAppWith({});
    try {
      const docs = await t.app.inject('/api/docs/');
      expect(docs.statusCode).toBe(200);
      expect(docs.body).toContain('swagger');
    } finally {
      await t.close();
    }
  });

  it('start-up names a bad METRICS_* or API_DOCS value', () => {
    const base = { JWT_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/portal-config-test' };
    expect(() => loadConfig({ ...base, METRICS_TOKEN: 'short' })).toThrow(
      'METRICS_TOKEN must be at least 16 characters long',
    );
    expect(() => loadConfig({ ...base, PORT: '4000', METRICS_PORT: '4000' })).toThrow(
      'METRICS_PORT must differ from PORT',
    );
    expect(() => loadConfig({ ...base, METRICS_PORT: 'abc' })).toThrow('METRICS_PORT');
    expect(() => loadConfig({ ...base, API_DOCS: 'maybe' })).toThrow('API_DOCS');
  });
});
