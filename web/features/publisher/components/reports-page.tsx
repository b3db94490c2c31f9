import {
  type PublisherReportGroup,
  publisherReportGroups,
  reportGroupLabels,
} from '@contract/reports.ts';
import { Button, Card, Group, Select, Skeleton, Stack, Switch, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { DateRangePicker } from '@/components/date-range-picker.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { QueryErrorState } from '@/components/query-error-state.tsx';
import { ReportView } from '@/components/report-view.tsx';
import { useErrorToast } from '@/components/use-error-toast.ts';
import { useReportParams } from '@/components/use-report-params.ts';
import {
  type PublisherReportParams,
  useExportPublisherReport,
  usePublisherReport,
} from '@/features/publisher/api/get-report.ts';
import { toast } from '@/lib/notify.ts';

const groupOptions = publisherReportGroups.map((g) => ({
  value: g,
  label: reportGroupLabels[g],
}));

/** /dashboard/reports: the publisher's own calls, payable calls and payout by day, offer or state. */
export function ReportsPage() {
  const params = useReportParams(publisherReportGroups, 'day');
  const query = params.query as PublisherReportParams;
  const report = usePublisherReport(query);
  const exportCsv = useExportPublisherReport();
  useErrorToast(report.error, 'Error loading report');
  const data = report.data;

  return (
    <Stack gap="lg">
      <PageHeader
        title="Reports"
        description="Your calls, payable calls and payout by day, offer or caller state."
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
          <DateRangePicker value={params.range} onChange={params.setRange} />
          <Select
            label="Group by"
            data={groupOptions}
            value={params.group}
            allowDeselect={false}
            onChange={(v) => v && params.setGroup(v as PublisherReportGroup)}
            w={{ base: '100%', xs: 170 }}
          />
          <Switch
            label="Compare with the previous period"
            checked={params.compare}
            onChange={(e) => params.setCompare(e.currentTarget.checked)}
            pb={8}
          />
        </Group>
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
            groupLabel={reportGroupLabels[data.group as PublisherReportGroup]}
            withRevenue={false}
            onSort={(col) => params.sortBy(col, data)}
          />
        </>
      )}
    </Stack>
  );
}
