import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParams } from '../../../contract/admin.ts';
import { resetUserFactors } from '../../auth/mfa.service.ts';
import { AppError, notFound } from '../../errors.ts';
import { actorOf, adminDoc } from '../../http/route-helpers.ts';
import { findUserForMfaReset } from './mfa.service.ts';

/** Recovery of two-factor sign-in (issue 17): an admin removes another user's factors. */
export const adminMfaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.delete(
    '/users/:id/factors',
    {
      schema: {
        ...adminDoc,
        params: IdParams,
        response: { 200: z.object({ removed: z.number().int() }) },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      if (req.params.id === actor.id) {
        throw new AppError(
          'validation_failed',
          'Remove your own authenticator apps from your profile, after entering a code.',
        );
      }
      const user = await findUserForMfaReset(app.db, req.params.id);
      if (!user) throw notFound('User');
      return resetUserFactors({ db: app.db, user, actor });
    },
  );
};
