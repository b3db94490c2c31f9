import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { REFRESH_REUSE_INTERVAL_SECONDS } from './auth-common.ts';
import {
  API_VERSION,
  API_VERSION_HEADER,
  GoTrueError,
  sendGoTrueError,
  toGoTrueError,
  wantsVersionedErrors,
} from './auth-errors.ts';
import { registerMetaRoutes } from './auth-meta.routes.ts';
import { registerMfaRoutes } from './auth-mfa.routes.ts';
import { type AuthRouteKit, takeOrRefuse } from './auth-route-kit.ts';
import { registerSessionRoutes } from './auth-session.routes.ts';
import { registerSignupRoutes } from './auth-signup.routes.ts';

export type AuthRoutesOptions = {
  /** The refresh-token reuse window (contract §7); 10 s unless a test shortens it. */
  reuseIntervalSeconds?: number;
};

/**
 * The GoTrue-compatible `/auth/v1` API for `@supabase/auth-js` (gotrue-contract.md). Its own
 * error handler answers GoTrue's error bodies; register it with prefix '/auth/v1', after
 * `decorateRateLimits`. The routes
 * live by what they do: auth-signup.routes.ts (sign-up and e-mail links),
 * auth-session.routes.ts (tokens, the user, logout), auth-mfa.routes.ts, auth-meta.routes.ts.
 */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, opts) => {
  // The app's store (server/auth/rate-limit.ts `decorateRateLimits`), shared with API keys.
  const store = app.rateLimits;
  const kit: AuthRouteKit = {
    store,
    // Keyed by the client address as TRUST_PROXY defines it (req.ip); 0 turns a limit off.
    limit: (bucket, rule) => async (req, reply) => {
      if (!rule) return;
      await takeOrRefuse(
        store,
        reply,
        `${bucket}:${req.ip}`,
        rule,
        () => 'Request rate limit reached',
      );
    },
    reuseIntervalSeconds: opts.reuseIntervalSeconds ?? REFRESH_REUSE_INTERVAL_SECONDS,
  };

  app.setErrorHandler((err, req, reply) => {
    const e = toGoTrueError(err as Error);
    if (e.status >= 500) req.log.error({ err, reqId: req.id }, 'auth request failed');
    return sendGoTrueError(req, reply, e);
  });
  app.setNotFoundHandler((req, reply) =>
    sendGoTrueError(
      req,
      reply,
      new GoTrueError(404, 'not_found', `No auth endpoint ${req.method} ${req.url.split('?')[0]}`),
    ),
  );
  app.addHook('onSend', async (req, reply) => {
    reply.header('cache-control', 'no-store');
    if (wantsVersionedErrors(req)) reply.header(API_VERSION_HEADER, API_VERSION);
  });

  // auth-js sends `Content-Type: application/json` even with no body (POST /logout).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(
        new GoTrueError(400, 'bad_json', 'Could not parse the request body as JSON.'),
        undefined,
      );
    }
  });
  // GoTrue also reads grant_type and credentials from a form body.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  registerSignupRoutes(app, kit);
  registerSessionRoutes(app, kit);
  registerMfaRoutes(app, kit);
  registerMetaRoutes(app);
};
