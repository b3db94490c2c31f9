import { type AdminReportGroup, reportGroupLabels } from '@contract/reports.ts';
import { Button, Card, Group, Select, Skeleton, Stack, Switch, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { DateRangePicker } from '@/components/date-range-picker.tsx';
import { QueryError } from '@/components/lists/query-error.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { ReportView, type ViewReport, type ViewRow } from '@/components/report-view.tsx';
import { useErrorToast } from '@/components/use-error-toast.ts';
import type { useReportParams } from '@/components/use-report-params.ts';
import { failedToast } from '@/lib/notify.ts';

/** A report as both APIs answer it: the view's rows and totals, and its first and last day. */
type ScreenReport = ViewReport & { from: string; to: string };

type ReportsScreenProps<G extends AdminReportGroup, Q, R extends ScreenReport> = {
  /** The header's line under "Reports": what this role's report counts. */
  description: string;
  groups: readonly G[];
  /** The page's `useReportParams(groups, …)`: period, grouping, comparison and sort in the URL. */
  params: ReturnType<typeof useReportParams<G>>;
  /** The report's query and its CSV export, both with `params.query`. */
  report: UseQueryResult<R, Error>;
  exportCsv: UseMutationResult<unknown, Error, Q>;
  query: Q;
  withRevenue: boolean;
  /** A line under the filters (e.g. what the report cannot group by). */
  filterNote?: ReactNode;
  /** Where a row drills into, or none for rows without a link. */
  rowHref?: (row: ViewRow, report: R) => string | undefined;
  /** A grouping's name, when it is not the contract's (a sub-id names its tag). */
  groupLabel?: (group: G) => string;
  /** What the figures count, in words, under the table. */
  note?: (report: R) => ReactNode;
};

/**
 * A reports screen (admin's and publisher's): header with Export CSV, period, grouping and
 * comparison filters, then the report (its error, its skeleton while loading, or its table).
 */
export function ReportsScreen<G extends AdminReportGroup, Q, R extends ScreenReport>({
  description,
  groups,
  params,
  report,
  exportCsv,
  query,
  withRevenue,
  filterNote,
  rowHref,
  note,
  groupLabel = (g) => reportGroupLabels[g],
}: ReportsScreenProps<G, Q, R>) {
  useErrorToast(report.error, 'Error loading report');
  const groupOptions = groups.map((g) => ({ value: g, label: groupLabel(g) }));
  const data = report.data;

  return (
    <Stack gap="lg">
      <PageHeader
        title="Reports"
        description={description}
        actions={
          <Button
            variant="default"
            leftSection={<IconDownload size={16} />}
            loading={exportCsv.isPending}
            disabled={!data}
            onClick={() => exportCsv.mutate(query, { onError: failedToast('Export failed') })}
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
            onChange={(v) => v && params.setGroup(v as G)}
            w={{ base: '100%', xs: 170 }}
          />
          <Switch
            label="Compare with the previous period"
            checked={params.compare}
            onChange={(e) => params.setCompare(e.currentTarget.checked)}
            pb={8}
          />
        </Group>
        {filterNote}
      </Card>
      {report.isError && !data ? (
        <QueryError title="Error loading report" query={report} />
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
            groupLabel={groupLabel(data.group as G)}
            withRevenue={withRevenue}
            onSort={(col) => params.sortBy(col, data)}
            rowHref={rowHref && ((row) => rowHref(row, data))}
            note={note?.(data)}
          />
        </>
      )}
    </Stack>
  );
}
