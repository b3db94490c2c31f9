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
import { kitPlugin } from '../../http/route-kit.ts';
import { createLead, leadsCsv, listLeads, updateLeadStatus } from './leads.service.ts';

/** All leads: filtered list, its CSV export, recording a lead by hand, changing its status. */
export const adminLeadsRoutes = kitPlugin(adminDoc, (admin) => {
  const lists = { query: LeadListQuery, csv: LeadCsvQuery, reply: LeadList };
  admin.listWithCsv('/leads', lists, listLeads, leadsCsv);
  admin.create('/leads', { body: CreateLead, reply: AdminLead }, createLead);
  admin.change(
    'PATCH',
    '/leads/:id',
    { params: IdParams, body: UpdateLeadStatus, reply: AdminLead },
    updateLeadStatus,
  );
});
