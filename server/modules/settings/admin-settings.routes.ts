import { AdminSettings, UpdateSettings } from '../../../contract/admin.ts';
import { uploadRules } from '../../../contract/uploads.ts';
import { actorOf, adminDoc } from '../../http/route-helpers.ts';
import { kitPlugin } from '../../http/route-kit.ts';
import { storeFileThenWrite, uploadFields } from '../../storage/upload.ts';
import { getAdminSettings, setLogo, updateSettings } from './admin-settings.service.ts';

/** Branding settings: all fields, text changes, and the logo upload. */
export const adminSettingsRoutes = kitPlugin(adminDoc, (admin, app) => {
  const logoUrl = (key: string) => app.storage.publicUrl(key);

  admin.route('GET', '/settings', { reply: AdminSettings }, async () =>
    getAdminSettings({ db: app.db, logoUrl }),
  );
  admin.route('PATCH', '/settings', { body: UpdateSettings, reply: AdminSettings }, async (req) =>
    updateSettings({ db: app.db, actor: actorOf(req), input: req.body, logoUrl }),
  );

  admin.route(
    'PUT',
    '/settings/logo',
    { consumes: ['multipart/form-data'], reply: AdminSettings },
    async (req) => {
      // Size (5 MB) and type (by content; SVGs with script refused) are checked as it streams.
      return storeFileThenWrite(req, app.storage, {
        owner: 'settings',
        fields: uploadFields(uploadRules.logo, 'logos', {
          file: { messages: { missing_files: 'No file selected' } },
        }),
        write: async (key) => {
          const r = await setLogo({ db: app.db, actor: actorOf(req), key, logoUrl });
          return { result: r.settings, replacedKey: r.replacedKey };
        },
      });
    },
  );
});
