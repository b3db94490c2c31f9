import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
import { bearerDoc, errorReplies } from '../../http/route-helpers.ts';
import { routeKit, tableLines } from '../../http/route-kit.ts';
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
import { publisherPostbackRoutes } from '../outbound/index.ts';
import {
  getOverview,
  getPublisherRangeOverview,
  getPublisherReport,
  publisherReportCsv,
} from '../reports/index.ts';
import { publisherScriptRoutes } from '../scripts/index.ts';

import { publisherSignatureRoutes } from '../signatures/index.ts';

const errors = errorReplies(400, 401, 403);
/** The signed-in publisher's id: every route here reads or writes their own things only. */
const me = (req: FastifyRequest) => currentUser(req).id;

/** /api/v1/publisher/*: a publisher's own offers, applications, leads, payouts and files. */
export const publisherRoutes: FastifyPluginAsyncZod = async (app) => {
  // onRequest: no validation, parsing or upload happens for anyone without the role.
  app.addHook('onRequest', requireRole('publisher'));
  registerDraftCleanup(app);
  await app.register(publisherLeadDetailRoutes);
  await app.register(publisherMoneyRoutes);
  await app.register(publisherTaxFormRoutes);
  await app.register(publisherPostbackRoutes);
  await app.register(publisherScriptRoutes);

  await app.register(publisherSignatureRoutes);
  const mine = routeKit(app, bearerDoc('publisher'), errors);

  mine.route('GET', '/overview', { reply: PublisherOverview }, async (req) =>
    getOverview({ db: app.db, publisherId: me(req) }),
  );
  // The lead and payout cards and the chart over a picked range of the network's days.
  mine.list(
    '/overview/range',
    { query: DashboardRangeQuery, reply: PublisherRangeOverview },
    (o, req) => getPublisherRangeOverview({ ...o, publisherId: me(req) }),
  );
  mine.list('/offers', { query: PublisherOffersQuery, reply: PublisherOfferList }, (o, req) =>
    listPublisherOffers({ ...o, publisherId: me(req) }),
  );

  mine.route(
    'POST',
    '/applications',
    {
      body: CreateApplicationBody,
      reply: PublisherApplication,
      status: 201,
      errors: errorReplies(404, 409),
    },
    async (req, reply) => {
      const publisher = currentUser(req);
      const application = await startApplication({
        db: app.db,
        publisher,
        offerId: req.body.offer_id,
      });
      return reply.status(201).send(application);
    },
  );

  mine.route(
    'DELETE',
    '/applications/:id',
    { params: ApplicationIdParams, reply: z.null(), status: 204, errors: errorReplies(404) },
    async (req, reply) => {
      await deleteDraft({ db: app.db, publisherId: me(req), applicationId: req.params.id });
      return reply.status(204).send(null);
    },
  );

  mine.route(
    'POST',
    '/applications/:id/compliance',
    {
      consumes: ['multipart/form-data'],
      description:
        'multipart/form-data: `media` (1 to 3 files, mp3 or mp4) and `document` (one pdf, doc or docx).',
      params: ApplicationIdParams,
      reply: ComplianceSubmission,
      status: 201,
      errors: errorReplies(404, 409, 413, 415),
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
  mine.list('/reports', { query: PublisherReportQuery, reply: PublisherReport }, (o, req) =>
    getPublisherReport({ ...o, publisherId: me(req) }),
  );
  mine.csv('/reports.csv', PublisherReportQuery, async (query, req) => ({
    name: `report-${query.group}`,
    lines: tableLines(await publisherReportCsv({ db: app.db, publisherId: me(req), query })),
  }));

  mine.list('/leads', { query: PublisherLeadsQuery, reply: PublisherLeadList }, (o, req) =>
    listPublisherLeads({ ...o, publisherId: me(req) }),
  );
  mine.list('/payouts', { query: PublisherPayoutsQuery, reply: PublisherPayoutList }, (o, req) =>
    listPublisherPayouts({ ...o, publisherId: me(req) }),
  );
  mine.route('GET', '/documents', { reply: PublisherDocuments }, async (req) =>
    getPublisherDocuments({ db: app.db, storage: app.storage, publisherId: me(req) }),
  );
  mine.list('/ios', { query: PublisherIosQuery, reply: PublisherIoList }, (o, req) =>
    listPublisherIos({ ...o, storage: app.storage, publisherId: me(req) }),
  );
};
