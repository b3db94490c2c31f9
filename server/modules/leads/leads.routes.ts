import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminLead,
  CreateLead,
  IdParams,
  LeadCsvQuery,
  LeadList,
  LeadListQuery,
  UpdateLeadStatus,
} from '../../../contract/admin.ts';
import { sendCsv } from '../../db/csv.ts';
import { respondIdempotently } from '../../http/idempotency.ts';
import { actorOf, adminDoc } from '../../http/route-helpers.ts';
import { createLead, leadsCsv, listLeads, updateLeadStatus } from './leads.service.ts';

/** All leads: filtered list, its CSV export, recording a lead by hand, changing its status. */
export const adminLeadsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/leads',
    { schema: { ...adminDoc, querystring: LeadListQuery, response: { 200: LeadList } } },
    async (req) => listLeads({ db: app.db, query: req.query }),
  );

  // The CSV takes the list's filters and sort; paging does not apply to an export.
  app.get(
    '/leads.csv',
    { schema: { ...adminDoc, querystring: LeadCsvQuery } },
    async (req, reply) => sendCsv(reply, 'leads', leadsCsv({ db: app.db, filter: req.query })),
  );

  app.post(
    '/leads',
    { schema: { ...adminDoc, body: CreateLead, response: { 201: AdminLead } } },
    async (req, reply) =>
      respondIdempotently(req, reply, 201, (db) =>
        createLead({ db, actor: actorOf(req), input: req.body }),
      ),
  );

  app.patch(
    '/leads/:id',
    {
      schema: {
        ...adminDoc,
        params: IdParams,
        body: UpdateLeadStatus,
        response: { 200: AdminLead },
      },
    },
    async (req) =>
      updateLeadStatus({ db: app.db, actor: actorOf(req), id: req.params.id, input: req.body }),
  );
};
