import { publisherReportGroups } from '@contract/reports.ts';
import { ReportsScreen } from '@/components/reports-screen.tsx';
import { useReportParams } from '@/components/use-report-params.ts';
import {
  type PublisherReportParams,
  useExportPublisherReport,
  usePublisherReport,
} from '@/features/publisher/api/get-report.ts';

/** /dashboard/reports: the publisher's own calls, payable calls and payout by day, offer or state. */
export function ReportsPage() {
  const params = useReportParams(publisherReportGroups, 'day');
  const query = params.query as PublisherReportParams;
  const report = usePublisherReport(query);
  const exportCsv = useExportPublisherReport();
  return (
    <ReportsScreen
      description="Your calls, payable calls and payout by day, offer or caller state."
      groups={publisherReportGroups}
      params={params}
      report={report}
      exportCsv={exportCsv}
      query={query}
      withRevenue={false}
    />
  );
}
