import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The request headers @supabase/auth-js (and our API client) send across origins. */
export const CORS_ALLOWED_HEADERS =
  'authorization, content-type, apikey, x-client-info, x-supabase-api-version, idempotency-key';
const CORS_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const CORS_PATHS = ['/auth/v1/', '/api/v1/'];

/**
 * CORS for /auth/v1 and /api/v1, only for the origins in CORS_ORIGINS (none by default).
 * Allowed origins get their preflight answered (204) and the version header exposed, so auth-js
 * reads the 2024-01-01 error codes; any other origin gets no CORS headers, so browsers refuse.
 * Credentials (cookies) are never involved: the API takes bearer tokens.
 */
export const corsPlugin = fp(async (app: FastifyInstance) => {
  const allowed = new Set(app.config.corsOrigins);
  if (allowed.size === 0) return;
  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    if (!CORS_PATHS.some((p) => path.startsWith(p))) return;
    const origin = req.headers.origin;
    reply.header('vary', 'Origin');
    if (typeof origin !== 'string' || !allowed.has(origin)) return;
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-expose-headers', 'x-supabase-api-version, retry-after');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      reply.header('access-control-allow-methods', CORS_METHODS);
      reply.header('access-control-allow-headers', CORS_ALLOWED_HEADERS);
      reply.header('access-control-max-age', '600');
      return reply.status(204).send();
    }
  });
});
