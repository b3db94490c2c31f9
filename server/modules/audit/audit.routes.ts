import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditList, AuditListQuery } from '../../../contract/admin.ts';
import { adminDoc } from '../../http/route-helpers.ts';
import { routeKit } from '../../http/route-kit.ts';
import { listAudit } from './audit.service.ts';

/** The audit log, newest first. */
export const adminAuditRoutes: FastifyPluginAsyncZod = async (app) => {
  routeKit(app, adminDoc).list('/audit', { query: AuditListQuery, reply: AuditList }, listAudit);
};
