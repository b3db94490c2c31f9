import { GoTrueClient } from '@supabase/auth-js';
import { afterAll, beforeAll } from 'vitest';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { freePort } from './free-port.ts';

/** The test app (buildTestApp) listening on a free port of 127.0.0.1, its PUBLIC_URL that address. */
export async function listeningTestApp(): Promise<{ t: TestApp; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await buildTestApp({ env: { PUBLIC_URL: base } });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, base };
}

export type ListeningTestApp = TestApp & { base: string };

/**
 * The file's listening test app, made in a beforeAll and closed in an afterAll. The object is
 * filled in when that beforeAll has run: use it inside tests and hooks.
 */
export function fileListeningApp(): ListeningTestApp {
  const ctx = {} as ListeningTestApp;
  beforeAll(async () => {
    const { t, base } = await listeningTestApp();
    Object.assign(ctx, t, { base });
  });
  afterAll(() => ctx.close());
  return ctx;
}

/**
 * A real @supabase/auth-js client of the app at `base`, with its own in-memory storage, and the
 * auth events it has emitted so far.
 */
export function newAuthClient(base: string): { client: GoTrueClient; events: string[] } {
  const items = new Map<string, string>();
  const events: string[] = [];
  const client = new GoTrueClient({
    url: `${base}/auth/v1`,
    headers: { apikey: 'anon' },
    storage: {
      getItem: (k) => items.get(k) ?? null,
      setItem: (k, v) => {
        items.set(k, v);
      },
      removeItem: (k) => {
        items.delete(k);
      },
    },
    persistSession: true,
    autoRefreshToken: false,
    detectSessionInUrl: false,
  });
  client.onAuthStateChange((event) => {
    events.push(event);
  });
  return { client, events };
}
