import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminPayout,
  CreatePayout,
  PayoutCsvQuery,
  PayoutList,
  PayoutListQuery,
} from '../../../contract/admin.ts';
import { sendCsv } from '../../db/csv.ts';
import { respondIdempotently } from '../../http/idempotency.ts';
import { actorOf, adminDoc } from '../../http/route-helpers.ts';
import { createPayout, listPayouts, payoutsCsv } from './payouts.service.ts';

/** Payouts: the list with publisher names, its CSV export, recording one for an approved publisher. */
export const adminPayoutsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/payouts',
    { schema: { ...adminDoc, querystring: PayoutListQuery, response: { 200: PayoutList } } },
    async (req) => listPayouts({ db: app.db, query: req.query }),
  );

  // The CSV takes the list's filters and sort; paging does not apply to an export.
  app.get(
    '/payouts.csv',
    { schema: { ...adminDoc, querystring: PayoutCsvQuery } },
    async (req, reply) => sendCsv(reply, 'payouts', payoutsCsv({ db: app.db, filter: req.query })),
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
