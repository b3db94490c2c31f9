/**
 * Reports and dashboards: the rollups and their fold, the kept blocks, the admin's reports and
 * dashboard, the publisher's overview and reports.
 */
export { keysFigures } from './dashboard.queries.ts';
export { getOverview } from './overview.service.ts';
export {
  getPublisherRangeOverview,
  getPublisherReport,
  publisherReportCsv,
} from './publisher-reports.service.ts';
export { registerReportFold } from './report-fold.ts';
export { registerReportWarmUp } from './report-warm-up.ts';
export { adminReportsRoutes } from './reports.routes.ts';
export { adminStatsRoutes } from './stats.routes.ts';
