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
import { adminDoc } from '../../http/route-helpers.ts';
import { routeKit } from '../../http/route-kit.ts';
import { createLead, leadsCsv, listLeads, updateLeadStatus } from './leads.service.ts';

/** All leads: filtered list, its CSV export, recording a lead by hand, changing its status. */
export const adminLeadsRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = routeKit(app, adminDoc);
  admin.list('/leads', { query: LeadListQuery, reply: LeadList }, listLeads);
  admin.csv('/leads.csv', LeadCsvQuery, (filter) => ({
    name: 'leads',
    lines: leadsCsv({ db: app.db, filter }),
  }));
  admin.create('/leads', { body: CreateLead, reply: AdminLead }, createLead);
  admin.change(
    'PATCH',
    '/leads/:id',
    { params: IdParams, body: UpdateLeadStatus, reply: AdminLead },
    updateLeadStatus,
  );
};
