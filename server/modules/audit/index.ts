/**
 * The audit capability: every admin action written with who, what, before and after, in the
 * transaction of the action, and the admin's audit log screen. Other capabilities write through
 * `writeAudit` and read a record's history through `recentAuditFor`.
 */
export { adminAuditRoutes } from './audit.routes.ts';
export { type Actor, recentAuditFor, writeAudit } from './audit.service.ts';
