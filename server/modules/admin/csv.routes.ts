import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LeadListQuery, PayoutListQuery } from '../../../contract/admin.ts';
import { csvFileName } from './csv.helpers.ts';
import { leadsCsv } from './leads.service.ts';
import { payoutsCsv } from './payouts.service.ts';
import { adminDoc } from './route.helpers.ts';

// The CSVs take the list filters and sort; paging does not apply to an export.
const LeadCsvQuery = LeadListQuery.omit({ page: true, page_size: true });
const PayoutCsvQuery = PayoutListQuery.omit({ page: true, page_size: true });

/** CSV exports of the filtered leads and payouts, streamed as they are read. */
export const adminCsvRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/leads.csv',
    { schema: { ...adminDoc, querystring: LeadCsvQuery } },
    async (req, reply) => {
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csvFileName('leads')}"`)
        .header('cache-control', 'no-store');
      return reply.send(Readable.from(leadsCsv({ db: app.db, filter: req.query })));
    },
  );

  app.get(
    '/payouts.csv',
    { schema: { ...adminDoc, querystring: PayoutCsvQuery } },
    async (req, reply) => {
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csvFileName('payouts')}"`)
        .header('cache-control', 'no-store');
      return reply.send(Readable.from(payoutsCsv({ db: app.db, filter: req.query })));
    },
  );
};
