import { randomInt } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { mailOutbox } from '../db/schema.ts';
import type { TestApp } from './build-test-app.ts';

/** The headers auth-js sends with a JSON body. */
export const GOTRUE_JSON_HEADERS = {
  'x-supabase-api-version': '2024-01-01',
  'content-type': 'application/json',
};

/** Another source address each call, so the per-IP buckets never step in. */
export const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** The API version header auth-js sends with every request. */
export const GOTRUE_VERSION = { 'x-supabase-api-version': '2024-01-01' };

/** What a GoTrue request of a test carries besides its method and path. */
export type GotrueRequest = {
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** The source address; another one each call unless a test is about the per-IP limits. */
  ip?: string;
  token?: string | null;
};

/** A request as auth-js makes it: version header, JSON body, bearer token, its own address. */
export const gotrueCall = (
  t: TestApp,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  r: GotrueRequest = {},
) =>
  t.app.inject({
    method,
    url,
    query: r.query,
    headers: {
      ...GOTRUE_VERSION,
      ...(r.body !== undefined ? { 'content-type': 'application/json;charset=UTF-8' } : {}),
      ...(r.token ? { authorization: `Bearer ${r.token}` } : {}),
      ...r.headers,
    },
    payload: r.body === undefined ? undefined : JSON.stringify(r.body),
    remoteAddress: r.ip ?? randomIp(),
  });

/** POST /auth/v1/token?grant_type=<grant> as auth-js sends it, from a random source address. */
export const postToken = (t: TestApp, grant: string, body: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `/auth/v1/token?grant_type=${grant}`,
    headers: GOTRUE_JSON_HEADERS,
    payload: JSON.stringify(body),
    remoteAddress: randomIp(),
  });

/** A password sign-in that must succeed; its session. */
export async function passwordSession(
  t: TestApp,
  email: string,
  password: string,
): Promise<{ access_token: string; refresh_token: string }> {
  const res = await postToken(t, 'password', { email, password });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** GET /auth/v1/user with an access token. */
export const getAuthUser = (t: TestApp, access: string): Promise<LightMyRequestResponse> =>
  t.app.inject({
    method: 'GET',
    url: '/auth/v1/user',
    headers: { ...GOTRUE_JSON_HEADERS, authorization: `Bearer ${access}` },
  });

/** GET /api/v1/me with an access token (the portal's own API, no GoTrue headers). */
export const getMe = (t: TestApp, access: string): Promise<LightMyRequestResponse> =>
  t.app.inject({
    method: 'GET',
    url: '/api/v1/me',
    headers: { authorization: `Bearer ${access}` },
  });

/** The mails queued to `to` (as the outbox spells it), newest first. */
export const mailsTo = (db: TestApp['db'], to: string) =>
  db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.createdAt));

/** The `/auth/v1/verify?…` link on `origin` (the app's PUBLIC_URL) a mail's text carries. */
export function verifyLinkIn(text: string, origin = 'http://localhost:3000'): string {
  const at = text.indexOf(`${origin}/auth/v1/verify?`);
  if (at < 0) throw new Error(`no verify link in:\n${text}`);
  return /^\S+/.exec(text.slice(at))![0];
}

/** GET a mailed link's path and query on the app, from `ip` (another address each call by default). */
export function followLink(t: TestApp, link: string, ip: string = randomIp()) {
  const u = new URL(link);
  return t.app.inject({ method: 'GET', url: `${u.pathname}${u.search}`, remoteAddress: ip });
}
