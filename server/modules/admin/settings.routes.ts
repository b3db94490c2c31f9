import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminSettings, UpdateSettings } from '../../../contract/admin.ts';
import { actorOf, adminDoc } from './route.helpers.ts';
import { getAdminSettings, updateSettings } from './settings.service.ts';

/** Branding settings: all fields, text changes, and the logo upload. */
export const adminSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const logoUrl = (key: string) => app.storage.publicUrl(key);

  app.get('/settings', { schema: { ...adminDoc, response: { 200: AdminSettings } } }, async () =>
    getAdminSettings({ db: app.db, logoUrl }),
  );

  app.patch(
    '/settings',
    { schema: { ...adminDoc, body: UpdateSettings, response: { 200: AdminSettings } } },
    async (req) => updateSettings({ db: app.db, actor: actorOf(req), input: req.body, logoUrl }),
  );
};
