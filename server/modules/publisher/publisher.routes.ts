import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorBody } from '../../../contract/errors.ts';
import {
  ApplicationIdParams,
  COMPLIANCE_RULES,
  ComplianceSubmission,
  CreateApplicationBody,
  PUBLISHER_MESSAGES,
  PublisherApplication,
  PublisherDocuments,
  PublisherIoList,
  PublisherIosQuery,
  PublisherLeadList,
  PublisherLeadsQuery,
  PublisherOfferList,
  PublisherOffersQuery,
  PublisherOverview,
  PublisherPayoutList,
  PublisherPayoutsQuery,
} from '../../../contract/publisher.ts';
import {
  DashboardRangeQuery,
  PublisherRangeOverview,
  PublisherReport,
  PublisherReportQuery,
} from '../../../contract/reports.ts';
import { uploadRules } from '../../../contract/uploads.ts';
import { currentUser, requireRole } from '../../auth/guard.ts';
import { csvLine, sendCsv } from '../../db/csv.ts';
import { DOCUMENT_MAX_BYTES, MEDIA_MAX_BYTES } from '../../storage/storage.ts';
import { storeThenWrite, uploadFields } from '../../storage/upload.ts';
import {
  deleteDraft,
  getPublisherDocuments,
  getSubmittableDraft,
  listPublisherIos,
  listPublisherOffers,
  registerDraftCleanup,
  startApplication,
  submitCompliance,
} from '../applications/index.ts';
import {
  listPublisherLeads,
  listPublisherPayouts,
  publisherLeadDetailRoutes,
} from '../leads/index.ts';
import { publisherMoneyRoutes, publisherTaxFormRoutes } from '../money/index.ts';
import {
  getOverview,
  getPublisherRangeOverview,
  getPublisherReport,
  publisherReportCsv,
} from '../reports/index.ts';

const errors = { 400: ApiErrorBody, 401: ApiErrorBody, 403: ApiErrorBody };
const base = { tags: ['publisher'], security: [{ bearer: [] }] };

/** /api/v1/publisher/*: a publisher's own offers, applications, leads, payouts and files. */
export const publisherRoutes: FastifyPluginAsyncZod = async (app) => {
  // onRequest: no validation, parsing or upload happens for anyone without the role.
  app.addHook('onRequest', requireRole('publisher'));
  registerDraftCleanup(app);
  await app.register(publisherLeadDetailRoutes);
  await app.register(publisherMoneyRoutes);
  await app.register(publisherTaxFormRoutes);

  app.get(
    '/overview',
    { schema: { ...base, response: { 200: PublisherOverview, ...errors } } },
    async (req) => getOverview({ db: app.db, publisherId: currentUser(req).id }),
  );

  // The lead and payout cards and the chart over a picked range of the network's days.
  app.get(
    '/overview/range',
    {
      schema: {
        ...base,
        querystring: DashboardRangeQuery,
        response: { 200: PublisherRangeOverview, ...errors },
      },
    },
    async (req) =>
      getPublisherRangeOverview({
        db: app.db,
        publisherId: currentUser(req).id,
        query: req.query,
      }),
  );

  app.get(
    '/offers',
    {
      schema: {
        ...base,
        querystring: PublisherOffersQuery,
        response: { 200: PublisherOfferList, ...errors },
      },
    },
    async (req) =>
      listPublisherOffers({
        db: app.db,
        publisherId: currentUser(req).id,
        query: req.query,
      }),
  );

  app.post(
    '/applications',
    {
      schema: {
        ...base,
        body: CreateApplicationBody,
        response: { 201: PublisherApplication, 404: ApiErrorBody, 409: ApiErrorBody, ...errors },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      const application = await startApplication({
        db: app.db,
        publisher: user,
        offerId: req.body.offer_id,
      });
      return reply.status(201).send(application);
    },
  );

  app.delete(
    '/applications/:id',
    {
      schema: {
        ...base,
        params: ApplicationIdParams,
        response: { 204: z.null(), 404: ApiErrorBody, ...errors },
      },
    },
    async (req, reply) => {
      await deleteDraft({
        db: app.db,
        publisherId: currentUser(req).id,
        applicationId: req.params.id,
      });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/applications/:id/compliance',
    {
      schema: {
        ...base,
        consumes: ['multipart/form-data'],
        description:
          'multipart/form-data: `media` (1 to 3 files, mp3 or mp4) and `document` (one pdf, doc or docx).',
        params: ApplicationIdParams,
        response: {
          201: ComplianceSubmission,
          404: ApiErrorBody,
          409: ApiErrorBody,
          413: ApiErrorBody,
          415: ApiErrorBody,
          ...errors,
        },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      const draft = await getSubmittableDraft({
        db: app.db,
        publisher: user,
        applicationId: req.params.id,
      });
      // The spec's sentences (Missing Files, Too many files) with their codes.
      const missing_files = PUBLISHER_MESSAGES.missingFiles;
      const result = await storeThenWrite(req, app.storage, {
        owner: user.id,
        fields: uploadFields(uploadRules.compliance, 'compliance-questionnaires', {
          [COMPLIANCE_RULES.mediaField]: {
            maxBytes: MEDIA_MAX_BYTES,
            messages: { missing_files, too_many_files: PUBLISHER_MESSAGES.tooManyFiles },
          },
          [COMPLIANCE_RULES.documentField]: {
            maxBytes: DOCUMENT_MAX_BYTES,
            messages: { missing_files, too_many_files: 'Please upload exactly one document.' },
          },
        }),
        write: async (files) => ({
          result: await submitCompliance({
            db: app.db,
            draft,
            media: files[COMPLIANCE_RULES.mediaField] ?? [],
            document: files[COMPLIANCE_RULES.documentField]![0]!,
            publicUrl: app.config.publicUrl,
          }),
        }),
      });
      return reply.status(201).send(result);
    },
  );

  // Reports over the publisher's own leads only (their rollup rows), without revenue or margin.
  app.get(
    '/reports',
    {
      schema: {
        ...base,
        querystring: PublisherReportQuery,
        response: { 200: PublisherReport, ...errors },
      },
    },
    async (req) =>
      getPublisherReport({ db: app.db, publisherId: currentUser(req).id, query: req.query }),
  );

  app.get(
    '/reports.csv',
    { schema: { ...base, querystring: PublisherReportQuery } },
    async (req, reply) => {
      const rows = await publisherReportCsv({
        db: app.db,
        publisherId: currentUser(req).id,
        query: req.query,
      });
      return sendCsv(
        reply,
        `report-${req.query.group}`,
        (async function* () {
          yield rows.map(csvLine).join('');
        })(),
      );
    },
  );

  app.get(
    '/leads',
    {
      schema: {
        ...base,
        querystring: PublisherLeadsQuery,
        response: { 200: PublisherLeadList, ...errors },
      },
    },
    async (req) =>
      listPublisherLeads({
        db: app.db,
        publisherId: currentUser(req).id,
        query: req.query,
      }),
  );

  app.get(
    '/payouts',
    {
      schema: {
        ...base,
        querystring: PublisherPayoutsQuery,
        response: { 200: PublisherPayoutList, ...errors },
      },
    },
    async (req) =>
      listPublisherPayouts({
        db: app.db,
        publisherId: currentUser(req).id,
        query: req.query,
      }),
  );

  app.get(
    '/documents',
    { schema: { ...base, response: { 200: PublisherDocuments, ...errors } } },
    async (req) =>
      getPublisherDocuments({ db: app.db, storage: app.storage, publisherId: currentUser(req).id }),
  );

  app.get(
    '/ios',
    {
      schema: {
        ...base,
        querystring: PublisherIosQuery,
        response: { 200: PublisherIoList, ...errors },
      },
    },
    async (req) =>
      listPublisherIos({
        db: app.db,
        storage: app.storage,
        publisherId: currentUser(req).id,
        query: req.query,
      }),
  );
};
