import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BulkLeadStatus,
  BulkLeadStatusResult,
  LeadFilter,
  LeadTotals,
} from '../../../contract/lead-actions.ts';
import { actorOf, adminDoc } from '../../http/route-helpers.ts';
import { bulkLeadStatus, leadTotals } from './lead-actions.service.ts';

/** The leads list's totals above the table, and approving or rejecting many leads at once. */
export const adminLeadActionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/leads/totals',
    { schema: { ...adminDoc, querystring: LeadFilter, response: { 200: LeadTotals } } },
    async (req) => leadTotals({ db: app.db, filter: req.query }),
  );

  app.post(
    '/leads/bulk-status',
    {
      schema: { ...adminDoc, body: BulkLeadStatus, response: { 200: BulkLeadStatusResult } },
    },
    async (req) => bulkLeadStatus({ db: app.db, actor: actorOf(req), input: req.body }),
  );
};
