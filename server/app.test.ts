import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../scripts/bundle-report.ts';
import { writeEntryPages } from '../scripts/entry-pages.ts';
import { precompress } from '../scripts/precompress.ts';
import { buildTestApp, type TestApp } from './test/build-test-app.ts';

let t: TestApp;
const BIG_JS = Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i};`).join('\n');
const webRoot = mkdtempSync(path.join(tmpdir(), 'portal-web-'));

beforeAll(async () => {
  writeFileSync(
    path.join(webRoot, 'index.html'),
    '<!doctype html><head></head><body><div id="root"></div></body>',
  );
  mkdirSync(path.join(webRoot, 'assets'));
  writeFileSync(path.join(webRoot, 'assets', 'app-123.js'), 'console.log(1)');
  writeFileSync(path.join(webRoot, 'assets', 'big-456.js'), BIG_JS);
  writeFileSync(path.join(webRoot, 'assets', 'screen-789.js'), 'export {}');
  writeFileSync(path.join(webRoot, 'assets', 'frame-321.js'), 'export {}');
  // What `npm run build` does after writing the files: the admin dashboard's own index.html
  // (its lazy chunk preloaded; the entry's import is preloaded by index.html already), then the
  // compressed copies.
  mkdirSync(path.join(webRoot, '.vite'));
  const manifest: Manifest = {
    'index.html': { file: 'assets/app-123.js', isEntry: true, imports: ['_big.js'] },
    '_big.js': { file: 'assets/big-456.js' },
    'web/screen.tsx': { file: 'assets/screen-789.js', isDynamicEntry: true, imports: ['_big.js'] },
    'web/frame.tsx': { file: 'assets/frame-321.js', isDynamicEntry: true },
  };
  writeFileSync(path.join(webRoot, '.vite/manifest.json'), JSON.stringify(manifest));
  writeEntryPages(
    webRoot,
    [
      {
        name: 'admin dashboard',
        path: '/admin',
        lazy: ['web/frame.tsx', 'web/screen.tsx'],
        budgetKb: 1,
      },
    ],
    ['web/frame.tsx'],
  );
  precompress(webRoot);
  t = await buildTestApp({ deps: { webRoot } });
});
afterAll(() => t.close());

describe('health and operations endpoints', () => {
  it('answers /healthz while the process is up', async () => {
    const res = await t.app.inject('/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz when the database answers', async () => {
    const res = await t.app.inject('/readyz');
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('ready');
  });

  it('serves Prometheus text at /metrics with requests by route and status', async () => {
    await t.app.inject('/api/v1/public/settings');
    const res = await t.app.inject('/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toMatch(
      /http_requests_total\{method="GET",route="\/api\/v1\/public\/settings",status="200"\} \d+/,
    );
    expect(res.body).toContain('http_request_duration_seconds_bucket');
  });
});

describe('public settings', () => {
  it('has the default welcome message on a fresh database', async () => {
    const res = await t.app.inject('/api/v1/public/settings');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.welcome_message).toBe('Welcome to the portal!');
    expect(body.company_name).toEqual(expect.any(String));
    expect(body.support_email).toContain('@');
    expect(body.logo_url).toBeNull();
  });
});

describe('errors', () => {
  it('answers an unknown API path with a JSON 404 carrying error.code', async () => {
    const res = await t.app.inject('/api/v1/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({
      error: { code: 'not_found', message: 'No route for GET /api/v1/nothing-here.' },
    });
  });

  it('answers an unknown POST outside the API with JSON too, not the SPA', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/somewhere' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });
});

describe('the single-page app', () => {
  for (const route of [
    '/',
    '/login',
    '/signup',
    '/buyer-signup',
    '/forgot-password',
    '/reset-password',
    '/admin',
    '/admin/offers',
    '/dashboard/ios',
    '/buyer-dashboard/campaigns',
  ]) {
    it(`loads index.html for ${route} with a strict CSP`, async () => {
      const res = await t.app.inject(route);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).toContain("object-src 'none'");
    });
  }

  it("sends an area's pages the copy of index.html that preloads its chunks, elsewhere index.html", async () => {
    const screen = '<link rel="modulepreload" crossorigin href="/assets/screen-789.js">';
    const frame = '<link rel="modulepreload" crossorigin href="/assets/frame-321.js">';
    const page = async (route: string) => {
      const res = await t.app.inject(route);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
      return res.body;
    };
    // The area's home: the frame and its screen.
    for (const route of ['/admin', '/admin/']) {
      const body = await page(route);
      expect(body).toContain(frame);
      expect(body).toContain(screen);
      // The entry's own import is index.html's to preload, not listed again.
      expect(body).not.toContain('big-456.js');
    }
    // Any other address of the area: the frame only (its screen is not known here).
    for (const route of ['/admin/offers', '/admin/publishers/5f0c']) {
      const body = await page(route);
      expect(body).toContain(frame);
      expect(body).not.toContain(screen);
    }
    // Sign-in and every address outside the area: index.html, preloading nothing of it.
    for (const route of ['/login', '/', '/administrator', '/dashboard']) {
      expect(await page(route)).not.toContain('modulepreload');
    }
  });

  it('serves /robots.txt as a text file that lets crawlers see /login only', async () => {
    const res = await t.app.inject('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).not.toContain('<div id="root">');
    const lines = res.body.trim().split('\n');
    expect(lines).toEqual(['User-agent: *', 'Allow: /login$', 'Disallow: /']);
  });

  it('serves hashed assets as immutable', async () => {
    const res = await t.app.inject('/assets/app-123.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('sends the built brotli or gzip copy of a chunk to a browser that accepts it', async () => {
    const br = await t.app.inject({
      url: '/assets/big-456.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.rawPayload.length).toBeLessThan(BIG_JS.length / 3);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_JS);

    const gz = await t.app.inject({
      url: '/assets/big-456.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(BIG_JS);

    const plain = await t.app.inject({
      url: '/assets/big-456.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_JS);
  });

  it('has every page load revalidate index.html, which names the current chunks', async () => {
    const res = await t.app.inject('/admin/leads');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers a chunk that no longer exists with 404, not with index.html', async () => {
    const res = await t.app.inject('/assets/leads-page-OldHash.js');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).not.toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
