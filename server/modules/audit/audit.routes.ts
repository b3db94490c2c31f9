import { AuditList, AuditListQuery } from '../../../contract/admin.ts';
import { adminDoc } from '../../http/route-helpers.ts';
import { kitPlugin } from '../../http/route-kit.ts';
import { listAudit } from './audit.service.ts';

/** The audit log, newest first. */
export const adminAuditRoutes = kitPlugin(adminDoc, (admin) => {
  admin.list('/audit', { query: AuditListQuery, reply: AuditList }, listAudit);
});
