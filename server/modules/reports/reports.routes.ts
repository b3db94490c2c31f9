import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminReport, AdminReportQuery } from '../../../contract/reports.ts';
import { csvLine, sendCsv } from '../../db/csv.ts';
import { adminDoc } from '../../http/route-helpers.ts';
import { adminReportCsv, getAdminReport } from './reports.service.ts';

/** The admin Reports screen: figures by day, hour, offer, vertical, publisher or state. */
export const adminReportsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/reports',
    { schema: { ...adminDoc, querystring: AdminReportQuery, response: { 200: AdminReport } } },
    async (req) => getAdminReport({ db: app.db, query: req.query }),
  );

  // Exactly the rows and columns the screen shows for the same query, totals row last.
  app.get(
    '/reports.csv',
    { schema: { ...adminDoc, querystring: AdminReportQuery } },
    async (req, reply) => {
      const lines = await adminReportCsv({ db: app.db, query: req.query });
      return sendCsv(reply, `report-${req.query.group}`, toLines(lines));
    },
  );
};

async function* toLines(rows: Parameters<typeof csvLine>[0][]) {
  yield rows.map(csvLine).join('');
}
