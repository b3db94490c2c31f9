import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminSettings,
  LOGO_MAX_BYTES,
  UpdateSettings,
  uploadTypes,
} from '../../../contract/admin.ts';
import { badRequest } from '../../errors.ts';
import { receiveUploads } from '../../storage/upload.ts';
import { commitUpload } from './files.helpers.ts';
import { actorOf, adminDoc } from './route.helpers.ts';
import { getAdminSettings, setLogo, updateSettings } from './settings.service.ts';

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

  app.put(
    '/settings/logo',
    {
      schema: {
        ...adminDoc,
        consumes: ['multipart/form-data'],
        response: { 200: AdminSettings },
      },
    },
    async (req) => {
      // Size (5 MB) and type (by content; SVGs with script refused) are checked as it streams.
      const { files } = await receiveUploads(req, app.storage, {
        owner: 'settings',
        files: {
          file: { bucket: 'logos', accept: uploadTypes.logo, max: 1, maxBytes: LOGO_MAX_BYTES },
        },
      });
      const stored = files.file![0];
      if (!stored) throw badRequest('No file selected', { file: ['No file selected'] });
      return commitUpload({
        storage: app.storage,
        key: stored.key,
        log: req.log,
        write: async () => {
          const r = await setLogo({ db: app.db, actor: actorOf(req), key: stored.key, logoUrl });
          return { result: r.settings, replacedKey: r.replacedKey };
        },
      });
    },
  );
};
