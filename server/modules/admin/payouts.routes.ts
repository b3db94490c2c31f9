import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminPayout, CreatePayout, PayoutList, PayoutListQuery } from '../../../contract/admin.ts';
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
    async (req, reply) => {
      const payout = await createPayout({ db: app.db, actor: actorOf(req), input: req.body });
      return reply.status(201).send(payout);
    },
  );
};
