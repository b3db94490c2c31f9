import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildAdmin,
  buildBuyer,
  buildPublisher,
  buildVerifiedFactor,
  tokenFor,
} from '../../test/factories.ts';
import { adminRoutes } from './index.ts';
import { type AdminTestContext, setupAdminTest } from './test.helpers.ts';

/** Every route the admin plugin declares, collected as Fastify registers them. */
async function declaredAdminRoutes(): Promise<{ method: string; url: string }[]> {
  const probe = Fastify({ logger: false });
  probe.setValidatorCompiler(validatorCompiler);
  probe.setSerializerCompiler(serializerCompiler);
  const found: { method: string; url: string }[] = [];
  probe.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) {
      if (method !== 'HEAD') found.push({ method, url: r.url });
    }
  });
  await probe.register(adminRoutes, { prefix: '/api/v1/admin' });
  await probe.ready();
  await probe.close();
  return found;
}

let t: AdminTestContext;
let routes: { method: string; url: string }[];
let publisherToken: string;
let buyerToken: string;

beforeAll(async () => {
  t = await setupAdminTest();
  routes = await declaredAdminRoutes();
  publisherToken = await t.tokenOf(await buildPublisher(t.db));
  buyerToken = await t.tokenOf(await buildBuyer(t.db));
});
afterAll(() => t.close());

const concrete = (url: string) => url.replaceAll(':id', crypto.randomUUID());

describe('admin permission matrix', () => {
  it('knows every route of the issue', () => {
    const list = routes.map((r) => `${r.method} ${r.url.replace('/api/v1/admin', '')}`);
    for (const r of [
      'GET /stats',
      'GET /publishers',
      'GET /buyers',
      'PATCH /publishers/:id',
      'PATCH /buyers/:id',
      'PUT /publishers/:id/agreement',
      'GET /offers',
      'POST /offers',
      'PATCH /offers/:id',
      'DELETE /offers/:id',
      'GET /applications',
      'PATCH /applications/:id',
      'PUT /applications/:id/io',
      'GET /compliance',
      'GET /leads',
      'POST /leads',
      'PATCH /leads/:id',
      'GET /payouts',
      'POST /payouts',
      'GET /approved-publishers',
      'GET /campaigns',
      'GET /settings',
      'PATCH /settings',
      'PUT /settings/logo',
      'GET /audit',
      'GET /leads.csv',
      'GET /payouts.csv',
      'GET /leads/:id',
      'PUT /leads/:id/recording',
      'GET /disputes',
      'POST /disputes/:id/messages',
      'POST /disputes/:id/accept',
      'POST /disputes/:id/decline',
      'GET /leads/totals',
      'POST /leads/bulk-status',
      'POST /lead-imports',
      'GET /lead-imports/:id',
      'POST /lead-imports/:id/check',
      'POST /lead-imports/:id/import',
      'GET /reports',
      'GET /reports.csv',
      'DELETE /users/:id/factors',
      'POST /publishers/bulk',
      'POST /applications/bulk',
      'GET /applications/:id/submissions',
      'GET /stats/range',
      'GET /notification-preferences',
      'PUT /notification-preferences',
    ]) {
      expect(list).toContain(r);
    }
  });

  it('answers 401 to anonymous callers and to a bad token, on every admin route', async () => {
    for (const r of routes) {
      const url = concrete(r.url);
      const anon = await t.app.inject({ method: r.method as 'GET', url, payload: {} });
      expect(anon.statusCode, `${r.method} ${r.url}`).toBe(401);
      expect(anon.json().error.code).toBe('unauthorized');
      const forged = await t.app.inject({
        method: r.method as 'GET',
        url,
        headers: { authorization: 'Bearer not.a.jwt' },
      });
      expect(forged.statusCode, `${r.method} ${r.url}`).toBe(401);
    }
  });

  it('answers 403 to publishers and buyers on every admin route, before reading the body', async () => {
    for (const r of routes) {
      for (const token of [publisherToken, buyerToken]) {
        const res = await t.app.inject({
          method: r.method as 'GET',
          url: concrete(r.url),
          headers: { authorization: `Bearer ${token}` },
          payload: { status: 'approved' },
        });
        expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
        expect(res.json().error).toEqual({
          code: 'forbidden',
          message: 'This area is for administrators only.',
        });
      }
    }
  });

  it('answers 403 insufficient_aal to an admin with a second factor who signed in with the password only', async () => {
    const admin = await buildAdmin(t.db);
    await buildVerifiedFactor(t.db, admin.id);
    const aal1 = await tokenFor(t.db, t.config.jwtSecret, admin);
    const aal2 = await tokenFor(t.db, t.config.jwtSecret, admin, { aal: 'aal2' });
    for (const r of routes) {
      const res = await t.app.inject({
        method: r.method as 'GET',
        url: concrete(r.url),
        headers: { authorization: `Bearer ${aal1}` },
        payload: { status: 'approved' },
      });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      expect(res.json().error.code, `${r.method} ${r.url}`).toBe('insufficient_aal');
      const ok = await t.app.inject({
        method: r.method as 'GET',
        url: concrete(r.url),
        headers: { authorization: `Bearer ${aal2}` },
      });
      expect([401, 403], `${r.method} ${r.url}`).not.toContain(ok.statusCode);
    }
  });

  it('lets the admin through on every route (no 401/403)', async () => {
    for (const r of routes) {
      const res = await t.app.inject({
        method: r.method as 'GET',
        url: concrete(r.url),
        headers: { authorization: `Bearer ${t.adminToken}` },
      });
      expect([401, 403], `${r.method} ${r.url}`).not.toContain(res.statusCode);
      expect(res.statusCode, `${r.method} ${r.url}`).toBeLessThan(500);
    }
  });
});
