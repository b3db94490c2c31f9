import { type AdminReportGroup, adminReportGroups, isSubIdGroup } from '@contract/reports.ts';
import { adminPaths } from '@/app/routes.ts';
import { groupOptionLabel, subIdTag, useReportSettings } from '@/components/report-sub-ids.ts';
import type { ViewRow } from '@/components/report-view.tsx';
import { ReportsScreen } from '@/components/reports-screen.tsx';
import { useReportParams } from '@/components/use-report-params.ts';
import {
  type AdminReportParams,
  useAdminReport,
  useExportAdminReport,
} from '@/features/admin/reports/api/get-report.ts';
import { MarginNote } from '@/features/admin/reports/components/margin-note.tsx';

/** The leads list filtered to one row of a report (its days, or hour, and its group's key). */
function drillHref(
  group: AdminReportGroup,
  row: ViewRow,
  from: string,
  to: string,
): string | undefined {
  // The leads list has no filter by tracker tag or by campaign: those rows have no link.
  if (isSubIdGroup(group) || group === 'buyer' || group === 'campaign') return undefined;
  const q = new URLSearchParams();
  if (group === 'day') {
    q.set('from', row.key);
    q.set('to', row.key);
  } else if (group === 'hour') {
    const start = Date.parse(row.key);
    q.set('from', new Date(start).toISOString());
    q.set('to', new Date(start + 3_600_000 - 1).toISOString());
  } else {
    q.set('from', from);
    q.set('to', to);
    const name = {
      offer: 'offer_id',
      publisher: 'publisher_id',
      vertical: 'vertical',
      state: 'state',
    }[group];
    // A call without a state is filtered as state "none".
    q.set(name, group === 'state' && row.key === '' ? 'none' : row.key);
  }
  return `${adminPaths.leads}?${q.toString()}`;
}

/** /admin/reports: the network's calls, payable calls, payout, revenue, margin and margin % by group. */
export function ReportsPage() {
  const params = useReportParams(adminReportGroups, 'day');
  const query = params.query as AdminReportParams;
  const report = useAdminReport(query);
  const exportCsv = useExportAdminReport();
  // Sub-ids are offered once a tracker tag is marked for them (Settings → Sub-ids in reports).
  const tags = useReportSettings().data?.sub_id_tags;
  const groups = adminReportGroups.filter(
    (g) => !isSubIdGroup(g) || subIdTag(tags, g) || g === params.group,
  );
  return (
    <ReportsScreen
      description="Calls, payable calls, payout, revenue, margin and margin % by day, hour, offer, vertical, publisher, buyer, campaign, caller state or a sub-id."
      groups={groups}
      groupLabel={(g) => groupOptionLabel(tags, g)}
      params={params}
      report={report}
      exportCsv={exportCsv}
      query={query}
      withRevenue
      rowHref={(row, data) => drillHref(params.group, row, data.from, data.to)}
      note={(data) => <MarginNote totals={data.totals} />}
    />
  );
}
