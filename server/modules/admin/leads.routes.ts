import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminLead,
  CreateLead,
  IdParams,
  LeadList,
  LeadListQuery,
  UpdateLeadStatus,
} from '../../../contract/admin.ts';
import { respondIdempotently } from '../../http/idempotency.ts';
import { createLead, listLeads, updateLeadStatus } from './leads.service.ts';
import { actorOf, adminDoc } from './route.helpers.ts';

/** All leads: filtered list, recording a lead by hand, changing its status. */
export const adminLeadsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/leads',
    { schema: { ...adminDoc, querystring: LeadListQuery, response: { 200: LeadList } } },
    async (req) => listLeads({ db: app.db, query: req.query }),
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
