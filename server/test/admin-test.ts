import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { buildAdmin, type TestUser, tokenFor } from './factories.ts';

/** One app per test file with a signed-in admin, and a short way to call the admin API. */
export type AdminTestContext = TestApp & {
  admin: TestUser;
  adminToken: string;
  /** Calls `/api/v1/admin{path}` as the admin (or as `token` when given; null = anonymous). */
  call(
    method: InjectOptions['method'],
    path: string,
    opts?: {
      body?: unknown;
      query?: Record<string, string>;
      token?: string | null;
      headers?: Record<string, string>;
    },
  ): Promise<LightMyRequestResponse>;
  tokenOf(user: { id: string; email: string }): Promise<string>;
};

export async function setupAdminTest(): Promise<AdminTestContext> {
  const t = await buildTestApp();
  const admin = await buildAdmin(t.db);
  const adminToken = await tokenFor(t.db, t.config.jwtSecret, admin);
  return {
    ...t,
    admin,
    adminToken,
    call(method, path, opts = {}) {
      const token = opts.token === undefined ? adminToken : opts.token;
      const headers: Record<string, string> = { ...opts.headers };
      if (token) headers.authorization = `Bearer ${token}`;
      return t.app.inject({
        method,
        url: `/api/v1/admin${path}`,
        query: opts.query,
        headers,
        ...(opts.body !== undefined && { payload: opts.body as InjectOptions['payload'] }),
      });
    },
    tokenOf: (user) => tokenFor(t.db, t.config.jwtSecret, user),
  };
}

/**
 * The file's admin test app (setupAdminTest), made in a beforeAll and closed in an afterAll. The
 * object is filled in when that beforeAll has run: use it inside tests and hooks.
 */
export function fileAdminTest(): AdminTestContext {
  const ctx = {} as AdminTestContext;
  beforeAll(async () => {
    Object.assign(ctx, await setupAdminTest());
  });
  afterAll(() => ctx.close());
  return ctx;
}

/** A real multipart/form-data body (as a browser sends it) for app.inject. */
export async function multipartBody(
  parts: { field: string; filename: string; data: Buffer; type?: string }[],
  fields: Record<string, string> = {},
): Promise<{ body: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const p of parts) {
    form.append(p.field, new Blob([new Uint8Array(p.data)], { type: p.type ?? '' }), p.filename);
  }
  const res = new Response(form);
  return {
    body: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type')! },
  };
}

/** A call tracker's GET postback of one call (the query is the call), from a documentation address. */
export const trackerGet = (app: TestApp['app'], query: Record<string, string>) =>
  app.inject({ method: 'GET', url: '/api/v1/ingest/calls', query, remoteAddress: '203.0.113.7' });
