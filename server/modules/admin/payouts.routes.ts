import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminPayout, CreatePayout, PayoutList, PayoutListQuery } from '../../../contract/admin.ts';
import { respondIdempotently } from '../../http/idempotency.ts';
import { createPayout, listPayouts } from './payouts.service.ts';
import { actorOf, adminDoc } from './route.helpers.ts';

/** Payouts: the list with publisher names, and recording one for an approved publisher. */
export const adminPayoutsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/payouts',
    { schema: { ...adminDoc, querystring: PayoutListQuery, response: { 200: PayoutList } } },
    async (req) => listPayouts({ db: app.db, query: req.query }),
  );

  app.post(
    '/payouts',
    { schema: { ...adminDoc, body: CreatePayout, response: { 201: AdminPayout } } },
    async (req, reply) =>
      respondIdempotently(req, reply, 201, (db) =>
        createPayout({ db, actor: actorOf(req), input: req.body }),
      ),
  );
};
