/**
 * The audit capability: every admin action written with who, what, before and after, in the
 * transaction of the action, and the admin's audit log screen. Other capabilities write through
 * `writeAudit` (or an `auditTrail` of their record's kind) and read a record's history through `recentAuditFor`.
 */
export { adminAuditRoutes } from './audit.routes.ts';
export {
  type Actor,
  type AdminAction,
  type AdminEdit,
  type AdminImport,
  type AdminWrite,
  type AuditChange,
  auditTrail,
  recentAuditFor,
  writeAudit,
} from './audit.service.ts';
