import { IdParams } from '../../../contract/admin.ts';
import { CheckLeadImport, IMPORT_MAX_BYTES, LeadImport } from '../../../contract/lead-actions.ts';
import { adminDoc } from '../../http/route-helpers.ts';
import { kitPlugin } from '../../http/route-kit.ts';
import {
  createImport,
  getImport,
  runningImports,
  startCheck,
  startImport,
} from './lead-imports.service.ts';

/**
 * CSV import of leads: upload (multipart, part `file`), check with a column mapping (a dry
 * run), import; the check and the import run in the background and the screen polls GET.
 */
export const adminLeadImportsRoutes = kitPlugin(adminDoc, (admin, app) => {
  // A check or import still running finishes (or fails and says so) before the app closes.
  app.addHook('onClose', async () => {
    await Promise.allSettled([...runningImports]);
  });

  admin.csvUpload(
    '/lead-imports',
    {
      reply: LeadImport,
      status: 201,
      maxBytes: IMPORT_MAX_BYTES,
      tooLarge: 'Split it into smaller files and import them one after another.',
    },
    createImport,
  );

  const one = { params: IdParams, reply: LeadImport };
  admin.read('/lead-imports/:id', one, getImport);
  // The check and the import go on in the background: 202, and the screen polls.
  const started = { ...one, status: 202 };
  admin.change(
    'POST',
    '/lead-imports/:id/check',
    { ...started, body: CheckLeadImport },
    startCheck,
  );
  admin.act('/lead-imports/:id/import', started, startImport);
});
