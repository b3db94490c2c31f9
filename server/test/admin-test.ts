import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { buildAdmin, type TestUser, tokenFor } from './factories.ts';
import { type MultipartPart, multipartBody } from './multipart.ts';

/** One app per test file with a signed-in admin, and a short way to call the admin API. */
export type AdminTestContext = TestApp & {
  admin: TestUser;
  adminToken: string;
  /**
   * Calls `/api/v1/admin{path}` as the admin (or as `token` when given; null = anonymous), with
   * `body` as JSON or `multipart` as a multipart/form-data body.
   */
  call(
    method: InjectOptions['method'],
    path: string,
    opts?: {
      body?: unknown;
      multipart?: MultipartPart[];
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
      const form = opts.multipart && multipartBody(opts.multipart);
      const headers: Record<string, string> = { ...form?.headers, ...opts.headers };
      if (token) headers.authorization = `Bearer ${token}`;
      const payload = form ? form.payload : opts.body;
      return t.app.inject({
        method,
        url: `/api/v1/admin${path}`,
        query: opts.query,
        headers,
        ...(payload !== undefined && { payload: payload as InjectOptions['payload'] }),
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

/** A call tracker's GET postback of one call (the query is the call), from a documentation address. */
export const trackerGet = (app: TestApp['app'], query: Record<string, string>) =>
  app.inject({ method: 'GET', url: '/api/v1/ingest/calls', query, remoteAddress: '203.0.113.7' });
