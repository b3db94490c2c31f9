import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { buildAdmin, buildBuyer, buildPublisher, tokenFor } from '../../test/factories.ts';

// The access matrix of the publisher and buyer APIs, built from the routes the app actually
// registered (its OpenAPI document), so a route added later is covered without editing this.

let t: TestApp;
const tokens: Record<string, string> = {};
let routes: { method: string; url: string; area: 'publisher' | 'buyer' }[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  const make = async (name: string, user: Promise<{ id: string; email: string }>) => {
    tokens[name] = await tokenFor(t.db, t.config.jwtSecret, await user);
  };
  await make('publisher', buildPublisher(t.db));
  await make('pendingPublisher', buildPublisher(t.db, { status: 'pending' }));
  await make('blockedPublisher', buildPublisher(t.db, { status: 'blocked' }));
  await make('buyer', buildBuyer(t.db));
  await make('blockedBuyer', buildBuyer(t.db, { status: 'blocked' }));
  await make('admin', buildAdmin(t.db));
  const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  for (const [p, ops] of Object.entries(doc.paths)) {
    const m = /^\/api\/v1\/(publisher|buyer)\//.exec(p);
    if (!m) continue;
    for (const method of Object.keys(ops)) {
      routes.push({
        method: method.toUpperCase(),
        url: p.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000'),
        area: m[1] as 'publisher' | 'buyer',
      });
    }
  }
  routes = routes.sort((a, b) => `${a.url}${a.method}`.localeCompare(`${b.url}${b.method}`));
});
afterAll(() => t.close());

const hit = (route: { method: string; url: string }, token?: string) =>
  t.app.inject({
    method: route.method as 'GET',
    url: route.url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

describe('publisher and buyer API access', () => {
  it('finds every route of both areas', () => {
    const list = routes.map((r) => `${r.method} ${r.url.replace(/0{8}-[0-9a-f-]+/, ':id')}`);
    expect(list).toEqual(
      expect.arrayContaining([
        'GET /api/v1/buyer/campaigns',
        'POST /api/v1/buyer/campaigns',
        'GET /api/v1/publisher/overview',
        'GET /api/v1/publisher/overview/range',
        'GET /api/v1/publisher/reports',
        'GET /api/v1/publisher/offers',
        'POST /api/v1/publisher/applications',
        'DELETE /api/v1/publisher/applications/:id',
        'POST /api/v1/publisher/applications/:id/compliance',
        'GET /api/v1/publisher/leads',
        'GET /api/v1/publisher/payouts',
        'GET /api/v1/publisher/documents',
        'GET /api/v1/publisher/ios',
      ]),
    );
  });

  it('answers 401 on every route without a token or with a forged one', async () => {
    for (const r of routes) {
      for (const token of [undefined, 'not-a-jwt']) {
        const res = await hit(r, token);
        expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
        expect(res.json().error.code).toBe('unauthorized');
      }
    }
  });

  it('answers 403 to the other roles and to blocked accounts on every route', async () => {
    const refused = {
      publisher: ['buyer', 'admin', 'blockedPublisher'],
      buyer: ['publisher', 'pendingPublisher', 'admin', 'blockedBuyer'],
    };
    for (const r of routes) {
      for (const who of refused[r.area]) {
        const res = await hit(r, tokens[who]);
        expect(res.statusCode, `${who} ${r.method} ${r.url}`).toBe(403);
        expect(res.json().error.code).toBe('forbidden');
      }
    }
  });

  it('lets the own role through the guard on every route', async () => {
    for (const r of routes) {
      const res = await hit(r, tokens[r.area]);
      expect([401, 403], `${r.method} ${r.url}`).not.toContain(res.statusCode);
    }
  });
});
