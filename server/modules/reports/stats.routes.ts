import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminStats, DailyStats, DailyStatsQuery } from '../../../contract/admin.ts';
import { AdminRangeStats, DashboardRangeQuery } from '../../../contract/reports.ts';
import { adminDoc } from '../../http/route-helpers.ts';
import { getDailyStats, getRangeStats, getStats } from './stats.service.ts';

/** The dashboard: three cards and the 30-day chart. */
export const adminStatsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/stats', { schema: { ...adminDoc, response: { 200: AdminStats } } }, async () =>
    getStats({ db: app.db }),
  );

  app.get(
    '/stats/daily',
    { schema: { ...adminDoc, querystring: DailyStatsQuery, response: { 200: DailyStats } } },
    async (req) => getDailyStats({ db: app.db, days: req.query.days }),
  );

  // The Total Payouts card and the chart over a picked range (the reports' presets and days).
  app.get(
    '/stats/range',
    {
      schema: { ...adminDoc, querystring: DashboardRangeQuery, response: { 200: AdminRangeStats } },
    },
    async (req) => getRangeStats({ db: app.db, query: req.query }),
  );
};
