import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PublicSettings } from '../../../contract/settings.ts';
import { getSettings } from '../../db/settings.ts';
import { toPublicSettings } from './settings.service.ts';

/** GET /api/v1/public/settings: branding for the login page and the sidebars. */
export const publicSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/public/settings',
    { schema: { tags: ['public'], response: { 200: PublicSettings } } },
    async (_req, reply) => {
      reply.header('cache-control', 'no-cache');
      const row = await getSettings(app.db);
      return toPublicSettings(row, (key) => app.storage.publicUrl(key));
    },
  );
};
