import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditList, AuditListQuery } from '../../../contract/admin.ts';
import { adminDoc } from '../../http/route-helpers.ts';
import { listAudit } from './audit.service.ts';

/** The audit log, newest first. */
export const adminAuditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/audit',
    { schema: { ...adminDoc, querystring: AuditListQuery, response: { 200: AuditList } } },
    async (req) => listAudit({ db: app.db, query: req.query }),
  );
};
