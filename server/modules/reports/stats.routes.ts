import {
  AdminStats,
  DailyStats,
  DailyStatsQuery,
  SetupChecklist,
} from '../../../contract/admin.ts';
import { AdminRangeStats, DashboardRangeQuery } from '../../../contract/reports.ts';
import { adminDoc } from '../../http/route-helpers.ts';
import { kitPlugin } from '../../http/route-kit.ts';
import {
  dismissSetupChecklist,
  getDailyStats,
  getRangeStats,
  getSetupChecklist,
  getStats,
} from './stats.service.ts';

/** The dashboard: three cards and the 30-day chart. */
export const adminStatsRoutes = kitPlugin(adminDoc, (admin, app) => {
  admin.route('GET', '/stats', { reply: AdminStats }, async () => getStats({ db: app.db }));
  admin.route('GET', '/stats/daily', { query: DailyStatsQuery, reply: DailyStats }, async (req) =>
    getDailyStats({ db: app.db, days: req.query.days }),
  );
  // The Total Payouts card and the chart over a picked range (the reports' presets and days).
  admin.list('/stats/range', { query: DashboardRangeQuery, reply: AdminRangeStats }, getRangeStats);
  // The newcomer's checklist (issue 34): its steps from the data, and this admin's dismissal.
  admin.route('GET', '/setup-checklist', { reply: SetupChecklist }, async (req) =>
    getSetupChecklist(admin.own(req)),
  );
  admin.route('POST', '/setup-checklist/dismiss', { reply: SetupChecklist }, async (req) =>
    dismissSetupChecklist(admin.own(req)),
  );
});
