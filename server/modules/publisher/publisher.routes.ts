import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorBody } from '../../../contract/errors.ts';
import {
  ApplicationIdParams,
  CreateApplicationBody,
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
import { currentUser, requireRole } from '../../auth/guard.ts';
import { deleteDraft, listPublisherOffers, startApplication } from './applications.service.ts';
import { registerDraftCleanup } from './draft-cleanup.job.ts';
import { getPublisherDocuments, listPublisherIos } from './files.service.ts';
import { listPublisherLeads, listPublisherPayouts } from './history.service.ts';
import { getOverview } from './overview.service.ts';

const errors = { 400: ApiErrorBody, 401: ApiErrorBody, 403: ApiErrorBody };
const base = { tags: ['publisher'], security: [{ bearer: [] }] };

/** /api/v1/publisher/*: a publisher's own offers, applications, leads, payouts and files. */
export const publisherRoutes: FastifyPluginAsyncZod = async (app) => {
  // onRequest: no validation, parsing or upload happens for anyone without the role.
  app.addHook('onRequest', requireRole('publisher'));
  registerDraftCleanup(app);

  app.get(
    '/overview',
    { schema: { ...base, response: { 200: PublisherOverview, ...errors } } },
    async (req) => getOverview({ db: app.db, publisherId: currentUser(req).id }),
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
        page: req.query.page,
        pageSize: req.query.page_size,
        search: req.query.search || undefined,
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
        page: req.query.page,
        pageSize: req.query.page_size,
        status: req.query.status,
        from: req.query.from,
        to: req.query.to,
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
        page: req.query.page,
        pageSize: req.query.page_size,
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
        page: req.query.page,
        pageSize: req.query.page_size,
      }),
  );
};
