import type { AdminReport } from '@contract/reports.ts';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiCall, apiDownload } from '@/lib/api-client.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';

export type AdminReportParams = EndpointQuery<typeof apiRoutes.admin.report>;

export function getAdminReport(query: AdminReportParams): Promise<AdminReport> {
  return apiCall(apiRoutes.admin.report, { query });
}

/** GET /api/v1/admin/reports; the last report stays on screen while the next one loads. */
export function useAdminReport(query: AdminReportParams) {
  return useQuery({
    queryKey: ['admin', 'reports', query],
    queryFn: () => getAdminReport(query),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/v1/admin/reports.csv: the same query, the rows on screen as a file. */
export function useExportAdminReport() {
  return useMutation({
    mutationFn: (query: AdminReportParams) =>
      apiDownload(apiRoutes.admin.reportCsv, query, 'report.csv'),
  });
}
