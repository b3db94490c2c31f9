import {
  AdminApplication,
  ApplicationList,
  ApplicationListQuery,
  ApplicationSubmissions,
  BulkDecideApplications,
  BulkDecisionResult,
  ComplianceList,
  ComplianceListQuery,
  DecideApplication,
  IdParams,
} from '../../../contract/admin.ts';
import { uploadRules } from '../../../contract/uploads.ts';
import { adminDoc } from '../../http/route-helpers.ts';
import { kitPlugin } from '../../http/route-kit.ts';
import { signedLinker } from '../../storage/file-links.ts';
import { storeFileThenWrite, uploadFields } from '../../storage/upload.ts';
import {
  assertCanHaveIo,
  bulkDecideApplications,
  decideApplication,
  listApplicationSubmissions,
  listApplications,
  listCompliance,
  setApplicationIo,
} from './applications.service.ts';

/** Applications (never drafts), their decisions, and the compliance submissions behind them. */
export const adminApplicationsRoutes = kitPlugin(adminDoc, (admin, app) => {
  const link = signedLinker(app.storage);
  const dashboardUrl = `${app.config.publicUrl}/dashboard`;
  admin.list('/applications', { query: ApplicationListQuery, reply: ApplicationList }, (o) =>
    listApplications({ ...o, link }),
  );

  admin.route(
    'GET',
    '/applications/:id/submissions',
    { params: IdParams, reply: ApplicationSubmissions },
    async (req) => listApplicationSubmissions({ db: app.db, id: req.params.id, link }),
  );

  const bulk = { body: BulkDecideApplications, reply: BulkDecisionResult };
  admin.command('/applications/bulk', bulk, (o) => bulkDecideApplications({ ...o, dashboardUrl }));

  admin.change(
    'PATCH',
    '/applications/:id',
    { params: IdParams, body: DecideApplication, reply: AdminApplication },
    (o) => decideApplication({ ...o, dashboardUrl, link }),
  );

  admin.list('/compliance', { query: ComplianceListQuery, reply: ComplianceList }, (o) =>
    listCompliance({ ...o, link }),
  );

  admin.route(
    'PUT',
    '/applications/:id/io',
    { consumes: ['multipart/form-data'], params: IdParams, reply: AdminApplication },
    async (req) => {
      // Refuse before storing anything unless the application is approved.
      const { publisherId } = await assertCanHaveIo(app.db, req.params.id);
      return storeFileThenWrite(req, app.storage, {
        owner: publisherId,
        fields: uploadFields(uploadRules.io, 'io_documents'),
        write: async (key) => {
          const r = await setApplicationIo({ ...admin.action(req), key, link });
          return { result: r.application, replacedKey: r.replacedKey };
        },
      });
    },
  );
});
