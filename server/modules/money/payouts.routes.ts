import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminPayout,
  CreatePayout,
  PayoutCsvQuery,
  PayoutList,
  PayoutListQuery,
} from '../../../contract/admin.ts';
import { adminDoc } from '../../http/route-helpers.ts';
import { routeKit } from '../../http/route-kit.ts';
import { createPayout, listPayouts, payoutsCsv } from './payouts.service.ts';

/** Payouts: the list with publisher names, its CSV export, recording one for an approved publisher. */
export const adminPayoutsRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = routeKit(app, adminDoc);
  admin.list('/payouts', { query: PayoutListQuery, reply: PayoutList }, listPayouts);
  admin.csv('/payouts.csv', PayoutCsvQuery, (filter) => ({
    name: 'payouts',
    lines: payoutsCsv({ db: app.db, filter }),
  }));
  admin.create('/payouts', { body: CreatePayout, reply: AdminPayout }, createPayout);
};
