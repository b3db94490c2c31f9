import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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
import { actorOf, adminDoc } from '../../http/route-helpers.ts';
import { signedLinker } from '../../storage/file-links.ts';
import { storeThenWrite, uploadFields } from '../../storage/upload.ts';
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
export const adminApplicationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/applications',
    {
      schema: {
        ...adminDoc,
        querystring: ApplicationListQuery,
        response: { 200: ApplicationList },
      },
    },
    async (req) =>
      listApplications({ db: app.db, query: req.query, link: signedLinker(app.storage) }),
  );

  app.get(
    '/applications/:id/submissions',
    { schema: { ...adminDoc, params: IdParams, response: { 200: ApplicationSubmissions } } },
    async (req) =>
      listApplicationSubmissions({
        db: app.db,
        id: req.params.id,
        link: signedLinker(app.storage),
      }),
  );

  app.post(
    '/applications/bulk',
    {
      schema: { ...adminDoc, body: BulkDecideApplications, response: { 200: BulkDecisionResult } },
    },
    async (req) =>
      bulkDecideApplications({
        db: app.db,
        actor: actorOf(req),
        input: req.body,
        dashboardUrl: `${app.config.publicUrl}/dashboard`,
      }),
  );

  app.patch(
    '/applications/:id',
    {
      schema: {
        ...adminDoc,
        params: IdParams,
        body: DecideApplication,
        response: { 200: AdminApplication },
      },
    },
    async (req) =>
      decideApplication({
        db: app.db,
        actor: actorOf(req),
        id: req.params.id,
        input: req.body,
        dashboardUrl: `${app.config.publicUrl}/dashboard`,
        link: signedLinker(app.storage),
      }),
  );

  app.get(
    '/compliance',
    {
      schema: { ...adminDoc, querystring: ComplianceListQuery, response: { 200: ComplianceList } },
    },
    async (req) =>
      listCompliance({ db: app.db, query: req.query, link: signedLinker(app.storage) }),
  );

  app.put(
    '/applications/:id/io',
    {
      schema: {
        ...adminDoc,
        consumes: ['multipart/form-data'],
        params: IdParams,
        response: { 200: AdminApplication },
      },
    },
    async (req) => {
      // Refuse before storing anything unless the application is approved.
      const { publisherId } = await assertCanHaveIo(app.db, req.params.id);
      return storeThenWrite(req, app.storage, {
        owner: publisherId,
        fields: uploadFields(uploadRules.io, 'io_documents'),
        write: async (files) => {
          const r = await setApplicationIo({
            db: app.db,
            actor: actorOf(req),
            id: req.params.id,
            key: files.file![0]!.key,
            link: signedLinker(app.storage),
          });
          return { result: r.application, replacedKeys: [r.replacedKey] };
        },
      });
    },
  );
};
