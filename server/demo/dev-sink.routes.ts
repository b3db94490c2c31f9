import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * /dev/sink/*: answers 200 `{"ok":true}` to anything, so the demo's postback and webhook have
 * a receiver on the portal itself (their deliveries then show in the logs as delivered).
 * Registered only with the dev mailbox (no SMTP, not production); it keeps nothing.
 */
export const devSinkRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({
    method: ['GET', 'POST'],
    url: '/dev/sink/*',
    schema: { hide: true },
    handler: async (_req, reply) => reply.header('cache-control', 'no-store').send({ ok: true }),
  });
};
