import { type AdminReportGroup, adminReportGroups, reportGroupLabels } from '@contract/reports.ts';
import { Button, Card, Group, Select, Skeleton, Stack, Switch, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { adminPaths } from '@/app/routes.ts';
import { DateRangePicker } from '@/components/date-range-picker.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { QueryErrorState } from '@/components/query-error-state.tsx';
import { ReportView, type ViewRow } from '@/components/report-view.tsx';
import { useErrorToast } from '@/components/use-error-toast.ts';
import { useReportParams } from '@/components/use-report-params.ts';
import {
  type AdminReportParams,
  useAdminReport,
  useExportAdminReport,
} from '@/features/admin/reports/api/get-report.ts';
import { MarginNote } from '@/features/admin/reports/components/margin-note.tsx';
import { toast } from '@/lib/notify.ts';

const groupOptions = adminReportGroups.map((g) => ({ value: g, label: reportGroupLabels[g] }));

/** The leads list filtered to one row of a report (its days, or hour, and its group's key). */
function drillHref(group: AdminReportGroup, row: ViewRow, from: string, to: string): string {
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

/** /admin/reports: the network's calls, payable calls, payout, revenue and margin by group. */
export function ReportsPage() {
  const params = useReportParams(adminReportGroups, 'day');
  const { range, group, compare } = params;
  const query = params.query as AdminReportParams;
  const report = useAdminReport(query);
  const exportCsv = useExportAdminReport();
  useErrorToast(report.error, 'Error loading report');
  const onSort = (col: string) => params.sortBy(col, report.data);

  const data = report.data;
  return (
    <Stack gap="lg">
      <PageHeader
        title="Reports"
        description="Calls, payable calls, payout, revenue and margin by day, hour, offer, vertical, publisher or caller state."
        actions={
          <Button
            variant="default"
            leftSection={<IconDownload size={16} />}
            loading={exportCsv.isPending}
            disabled={!data}
            onClick={() =>
              exportCsv.mutate(query, {
                onError: (e) =>
                  toast({
                    title: 'Export failed',
                    description: e.message || 'Something went wrong',
                    variant: 'destructive',
                  }),
              })
            }
          >
            Export CSV
          </Button>
        }
      />
      <Card withBorder padding="md">
        <Group gap="md" align="flex-end" wrap="wrap">
          <DateRangePicker value={range} onChange={params.setRange} />
          <Select
            label="Group by"
            data={groupOptions}
            value={group}
            allowDeselect={false}
            onChange={(v) => v && params.setGroup(v as AdminReportGroup)}
            w={{ base: '100%', xs: 170 }}
          />
          <Switch
            label="Compare with the previous period"
            checked={compare}
            onChange={(e) => params.setCompare(e.currentTarget.checked)}
            pb={8}
          />
        </Group>
        <Text size="xs" c="dimmed" mt="xs">
          Leads carry no buyer campaign, so reports cannot group by campaign.
        </Text>
      </Card>
      {report.isError && !data ? (
        <QueryErrorState
          title="Error loading report"
          error={report.error}
          onRetry={() => void report.refetch()}
          retrying={report.isFetching}
        />
      ) : !data ? (
        <Stack gap="md" role="status" aria-label="Loading report">
          <Skeleton height={280} />
          <Skeleton height={320} />
        </Stack>
      ) : (
        <>
          {data.previous ? (
            <Text size="sm" c="dimmed">
              {data.from} – {data.to} compared with {data.previous.from} – {data.previous.to}
            </Text>
          ) : null}
          <ReportView
            report={data}
            groupLabel={reportGroupLabels[data.group as AdminReportGroup]}
            withRevenue
            onSort={onSort}
            rowHref={(row) => drillHref(group, row, data.from, data.to)}
            note={<MarginNote totals={data.totals} />}
          />
        </>
      )}
    </Stack>
  );
}
