import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MeProfile } from '../../../contract/auth.ts';
import { currentUser, requireAuth } from '../../auth/guard.ts';

/**
 * GET /api/v1/me: any signed-in user, their own row only. The guard's one statement reads the
 * profile together with the session check, so this answer costs one round trip.
 */
export const meRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/me',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['me'],
        security: [{ bearer: [] }],
        response: { 200: MeProfile },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const user = currentUser(req);
      return { ...user.profile, mfa_required: app.config.mfaRequiredFor.includes(user.role) };
    },
  );
};
