import type { InjectOptions } from 'fastify';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { buildAdmin, type TestUser, tokenFor } from '../../test/factories.ts';

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
  ): ReturnType<TestApp['app']['inject']>;
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
