import type { PublisherReport } from '@contract/reports.ts';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiCall, apiDownload } from '@/lib/api-client.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';

export type PublisherReportParams = EndpointQuery<typeof apiRoutes.publisher.report>;

/** GET /api/v1/publisher/reports: the publisher's own leads; the last report stays while loading. */
export function usePublisherReport(query: PublisherReportParams) {
  return useQuery({
    queryKey: ['publisher', 'reports', query],
    queryFn: (): Promise<PublisherReport> => apiCall(apiRoutes.publisher.report, { query }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/v1/publisher/reports.csv: the rows on screen as a file. */
export function useExportPublisherReport() {
  return useMutation({
    mutationFn: (query: PublisherReportParams) =>
      apiDownload(apiRoutes.publisher.reportCsv, query, 'report.csv'),
  });
}
