import { AdminReport, AdminReportQuery } from '../../../contract/reports.ts';
import { adminDoc } from '../../http/route-helpers.ts';
import { kitPlugin, tableLines } from '../../http/route-kit.ts';
import { adminReportCsv, getAdminReport } from './reports.service.ts';

/** The admin Reports screen: figures by day, hour, offer, vertical, publisher or state. */
export const adminReportsRoutes = kitPlugin(adminDoc, (admin, app) => {
  admin.list('/reports', { query: AdminReportQuery, reply: AdminReport }, getAdminReport);

  // Exactly the rows and columns the screen shows for the same query, totals row last.
  admin.csv('/reports.csv', AdminReportQuery, async (query) => ({
    name: `report-${query.group}`,
    lines: tableLines(await adminReportCsv({ db: app.db, query })),
  }));
});
