import type { AdminReportQuery } from '../../../contract/reports.ts';
import type { CsvCell } from '../../db/csv.ts';
import type { ListRead } from '../../db/list-query.ts';
import { networkTimeZone } from '../../db/settings.ts';
import { reportCsv } from './report-csv.ts';
import { buildReport, NETWORK_OWNER, type Report } from './reports.queries.ts';

/** The network's report: every lead, in the network's time zone. */
export async function getAdminReport(opts: ListRead<AdminReportQuery>): Promise<Report> {
  const tz = await networkTimeZone(opts.db);
  return buildReport(opts.db, { owner: NETWORK_OWNER, tz, query: opts.query });
}

/** The same report as CSV lines (the screen's rows, totals row last). */
export async function adminReportCsv(opts: ListRead<AdminReportQuery>): Promise<CsvCell[][]> {
  return reportCsv(await getAdminReport(opts), { revenue: true });
}
