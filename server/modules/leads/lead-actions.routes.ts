import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BulkLeadStatus,
  BulkLeadStatusResult,
  LeadFilter,
  LeadTotals,
} from '../../../contract/lead-actions.ts';
import { actorOf, adminDoc } from '../../http/route-helpers.ts';
import { routeKit } from '../../http/route-kit.ts';
import { bulkLeadStatus, leadTotals } from './lead-actions.service.ts';

/** The leads list's totals above the table, and approving or rejecting many leads at once. */
export const adminLeadActionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = routeKit(app, adminDoc);
  admin.route('GET', '/leads/totals', { query: LeadFilter, reply: LeadTotals }, async (req) =>
    leadTotals({ db: app.db, filter: req.query }),
  );
  admin.route(
    'POST',
    '/leads/bulk-status',
    { body: BulkLeadStatus, reply: BulkLeadStatusResult },
    async (req) => bulkLeadStatus({ db: app.db, actor: actorOf(req), input: req.body }),
  );
};
