import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's headers, worked out once at start-up and set on every answer.
 *
 * @fastify/helmet builds a new helmet middleware (parsing every CSP directive again) on each
 * request, a few per cent of the CPU of a cheap read like GET /api/v1/me. Our options are static
 * (no nonces, no per-route overrides), so helmet is run once against a recording response and
 * the headers it sets are replayed as they are: the headers stay helmet's own.
 */
export function helmetHeaders(options: Readonly<HelmetOptions>): {
  set: [string, string][];
  remove: string[];
} {
  const set: [string, string][] = [];
  const remove: string[] = [];
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.push([name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value)]);
      return res;
    },
    removeHeader(name: string) {
      remove.push(name.toLowerCase());
    },
  };
  let failed: unknown;
  let finished = false;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    failed = err;
    finished = true;
  });
  if (failed) throw failed;
  if (!finished) throw new Error('helmet did not set its headers synchronously');
  return { set, remove };
}

/** Sets helmet's headers (computed once) on every answer, before any route runs. */
export const securityHeaders = fp<{ helmet: HelmetOptions }>(
  async (app: FastifyInstance, opts) => {
    const { set, remove } = helmetHeaders(opts.helmet);
    const headers = Object.fromEntries(set);
    app.addHook('onRequest', (_req, reply, done) => {
      reply.headers(headers);
      for (const name of remove) reply.raw.removeHeader(name);
      done();
    });
  },
  { name: 'security-headers' },
);
