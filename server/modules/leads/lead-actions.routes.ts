import {
  BulkLeadStatus,
  BulkLeadStatusResult,
  LeadFilter,
  LeadTotals,
} from '../../../contract/lead-actions.ts';
import { adminDoc } from '../../http/route-helpers.ts';
import { kitPlugin } from '../../http/route-kit.ts';
import { bulkLeadStatus, leadTotals } from './lead-actions.service.ts';

/** The leads list's totals above the table, and approving or rejecting many leads at once. */
export const adminLeadActionsRoutes = kitPlugin(adminDoc, (admin, app) => {
  admin.route('GET', '/leads/totals', { query: LeadFilter, reply: LeadTotals }, async (req) =>
    leadTotals({ db: app.db, filter: req.query }),
  );
  const bulk = { body: BulkLeadStatus, reply: BulkLeadStatusResult };
  admin.command('/leads/bulk-status', bulk, bulkLeadStatus);
});
