import {
  AdminReport,
  AdminReportQuery,
  ReportSettings,
  SavedReportSettings,
} from '../../../contract/reports.ts';
import { actorOf, adminDoc, errorReplies } from '../../http/route-helpers.ts';
import { kitPlugin, tableLines } from '../../http/route-kit.ts';
import {
  adminReportCsv,
  getAdminReport,
  getReportSettings,
  putReportSettings,
} from './reports.service.ts';

/**
 * The admin Reports screen: figures by day, hour, offer, vertical, publisher, state or a
 * sub-id (a tracker tag marked in the report settings).
 */
export const adminReportsRoutes = kitPlugin(adminDoc, (admin, app) => {
  admin.list('/reports', { query: AdminReportQuery, reply: AdminReport }, getAdminReport);

  // Exactly the rows and columns the screen shows for the same query, totals row last.
  admin.csv('/reports.csv', AdminReportQuery, async (query) => ({
    name: `report-${query.group}`,
    lines: tableLines(await adminReportCsv({ db: app.db, query })),
  }));

  admin.route('GET', '/report-settings', { reply: SavedReportSettings }, async () =>
    getReportSettings({ db: app.db }),
  );
  admin.route(
    'PUT',
    '/report-settings',
    { body: ReportSettings, reply: SavedReportSettings, errors: errorReplies(400) },
    async (req) => putReportSettings({ db: app.db, actor: actorOf(req), input: req.body }),
  );
});
