import {
  type AdminReportFigures,
  changePercent,
  isNewFigure,
  type PublisherReportFigures,
  reportGroupHeading,
} from '@contract/reports.ts';
import {
  ActionIcon,
  Anchor,
  Card,
  Group,
  ScrollArea,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';
import { type ReactNode, Suspense } from 'react';
import { Link } from 'react-router';
import { formatCount, formatMoney, formatPercent, formatSeconds } from '@/lib/format.ts';
import { lazyExport } from '@/lib/lazy-export.ts';

// recharts is heavy: the table shows while the chart's chunk downloads.
const ReportChart = lazyExport(() => import('./report-chart.tsx'), 'ReportChart');

/** Figures of a row as both reports answer them (publishers' lack revenue and margin). */
export type ViewFigures = PublisherReportFigures &
  Partial<Omit<AdminReportFigures, keyof PublisherReportFigures>>;
export type ViewRow = {
  key: string;
  label: string;
  figures: ViewFigures;
  previous_figures: ViewFigures | null;
};
export type ViewReport = {
  group: string;
  sort: string;
  order: 'asc' | 'desc';
  timezone: string;
  rows: ViewRow[];
  groups: number;
  totals: ViewFigures;
  previous_totals: ViewFigures | null;
  previous: { from: string; to: string } | null;
};

type Column = {
  sort: string;
  head: string;
  get: (f: ViewFigures) => number | null;
  show: (v: number | null) => string;
  /** A second, smaller line under the value (this period's figures only). */
  sub?: (f: ViewFigures) => string | null;
  /** What the column counts, when its name is too short to say it (the header's tooltip). */
  title?: string;
};

/** The figure columns, in the order of the screen and of the CSV. */
export function reportColumns(withRevenue: boolean): Column[] {
  const cols: Column[] = [
    { sort: 'calls', head: 'Calls', get: (f) => f.calls, show: (v) => formatCount(v ?? 0) },
    {
      sort: 'payable_calls',
      head: 'Payable calls',
      get: (f) => f.payable_calls,
      show: (v) => formatCount(v ?? 0),
    },
    { sort: 'payable_rate', head: 'Payable %', get: (f) => f.payable_rate, show: formatPercent },
    { sort: 'avg_duration', head: 'Avg duration', get: (f) => f.avg_duration, show: formatSeconds },
    { sort: 'payout', head: 'Payout', get: (f) => f.payout, show: formatMoney },
  ];
  if (withRevenue) {
    cols.push(
      { sort: 'revenue', head: 'Revenue', get: (f) => f.revenue ?? null, show: formatMoney },
      {
        sort: 'margin',
        head: 'Margin',
        get: (f) => f.margin ?? null,
        show: formatMoney,
        title: 'Revenue − payout of the calls that carry a revenue',
      },
      {
        sort: 'margin_pct',
        head: 'Margin %',
        get: (f) => f.margin_pct ?? null,
        show: formatPercent,
        title: 'Margin ÷ revenue',
      },
      // What the margin leaves out, beside it: payable calls without a revenue and their payout.
      {
        sort: 'payout_without_revenue',
        head: 'No revenue',
        get: (f) => f.payout_without_revenue ?? 0,
        show: formatMoney,
        sub: (f) => {
          const n = f.payable_without_revenue ?? 0;
          return n > 0 ? `${formatCount(n)} ${n === 1 ? 'call' : 'calls'}` : null;
        },
        title: 'Payout of the payable calls that carry no revenue: not in the margin',
      },
      {
        sort: 'disputes',
        head: 'Disputes',
        get: (f) => f.disputes ?? 0,
        show: (v) => formatCount(v ?? 0),
      },
    );
  }
  return cols;
}

/** The change in %, or a dash when there is none to show (nothing before, or nothing now). */
function Change({ current, previous }: { current: number | null; previous: number | null }) {
  const pct = changePercent(current, previous);
  const color = pct === null || pct === 0 ? 'dimmed' : pct > 0 ? 'teal.9' : 'red.9';
  return pct === null ? (
    <Text size="xs" c={color} title="No change in % to show" aria-label="no change %">
      —
    </Text>
  ) : (
    <Text size="xs" c={color} style={{ whiteSpace: 'nowrap' }}>
      {`${pct > 0 ? '+' : ''}${pct.toFixed(1)}%`}
    </Text>
  );
}

/** Nothing now and nothing before (none or zero): no comparison to show under the figure. */
const bothEmpty = (current: number | null, previous: number | null) => !current && !previous;

type FigureProps = { col: Column; f: ViewFigures; p: ViewFigures | null; compare: boolean };

/**
 * What stands under a figure (in its cell or on its phone card): the column's second line, then
 * when comparing, the previous period's value and the change.
 */
function FigureNotes({ col, f, p, compare }: FigureProps) {
  const sub = col.sub?.(f);
  return (
    <>
      {sub ? (
        <Text size="xs" c="dimmed" fw={400}>
          {sub}
        </Text>
      ) : null}
      {compare && bothEmpty(col.get(f), p ? col.get(p) : null) ? null : compare &&
        isNewFigure(col.get(f), p ? col.get(p) : null) ? (
        <Text size="xs" c="teal.9" fw={600} title="Nothing in the previous period">
          new
        </Text>
      ) : compare && p ? (
        <>
          <Text size="xs" c="dimmed">
            was {col.show(col.get(p))}
          </Text>
          <Change current={col.get(f)} previous={col.get(p)} />
        </>
      ) : null}
    </>
  );
}

function FigureCell({ col, f, p, compare, strong }: FigureProps & { strong?: boolean }) {
  return (
    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} fw={strong ? 700 : undefined}>
      {col.show(col.get(f))}
      <FigureNotes col={col} f={f} p={p} compare={compare} />
    </Table.Td>
  );
}

/** A row's figures (or the totals, `strong`), one cell per column. */
function FigureCells({
  cols,
  ...figures
}: Omit<FigureProps, 'col'> & { cols: Column[]; strong?: boolean }) {
  return cols.map((c) => <FigureCell key={c.sort} col={c} {...figures} />);
}

/**
 * A column's name that sorts by it. Names wrap between words (the last word stays with the sort
 * icon), so ten columns fit beside the sidebar at 1280 px: the figures set the widths.
 */
function SortHeader({
  label,
  sort,
  report,
  onSort,
  align,
  title,
  below,
}: {
  label: string;
  sort: string;
  report: ViewReport;
  onSort: (sort: string) => void;
  align: 'left' | 'right';
  title?: string | undefined;
  /** A smaller line under the name (the time zone of the group column). */
  below?: string | undefined;
}) {
  const active = report.sort === sort;
  const Icon = !active ? IconSelector : report.order === 'asc' ? IconArrowUp : IconArrowDown;
  const words = label.split(' ');
  const last = words.pop();
  return (
    <Table.Th
      ta={align}
      aria-sort={active ? (report.order === 'asc' ? 'ascending' : 'descending') : 'none'}
      style={{ verticalAlign: 'bottom' }}
    >
      <UnstyledButton onClick={() => onSort(sort)} fw={600} fz="sm" title={title} ta={align}>
        {words.length > 0 ? `${words.join(' ')} ` : null}
        <span style={{ whiteSpace: 'nowrap' }}>
          {last}
          <Icon size={12} aria-hidden style={{ marginLeft: 2, verticalAlign: 'middle' }} />
        </span>
      </UnstyledButton>
      {below ? (
        <Text size="xs" c="dimmed" fw={400}>
          {below}
        </Text>
      ) : null}
    </Table.Th>
  );
}

/** One row (or the totals) on a phone: its name, then each figure under its column's name. */
function FigureCard({
  title,
  href,
  cols,
  f,
  p,
  compare,
  testId,
}: {
  title: string;
  href?: string | undefined;
  cols: Column[];
  f: ViewFigures;
  p: ViewFigures | null;
  compare: boolean;
  testId: string;
}) {
  return (
    <Card withBorder padding="sm" data-testid={testId}>
      <Text fw={700} fz="sm" mb={6} style={{ overflowWrap: 'anywhere' }}>
        {href ? (
          <Anchor component={Link} to={href} fz="sm" fw={700}>
            {title}
          </Anchor>
        ) : (
          title
        )}
      </Text>
      <SimpleGrid cols={2} spacing="xs" verticalSpacing={6}>
        {cols.map((c) => (
          <div key={c.sort}>
            <Text size="xs" c="dimmed">
              {c.head}
            </Text>
            <Text size="sm" fw={500}>
              {c.show(c.get(f))}
            </Text>
            <FigureNotes col={c} f={f} p={p} compare={compare} />
          </div>
        ))}
      </SimpleGrid>
    </Card>
  );
}

/**
 * Below the `sm` breakpoint (phones) the table becomes a list of cards, each row's name (the
 * drill-down link) first, with a sort picker in place of the column headers.
 */
function ReportCards({
  report,
  groupLabel,
  cols,
  onSort,
  rowHref,
}: {
  report: ViewReport;
  groupLabel: string;
  cols: Column[];
  onSort: (sort: string) => void;
  rowHref?: ((row: ViewRow) => string | undefined) | undefined;
}) {
  const compare = report.previous !== null;
  const options = [
    { value: 'label', label: groupLabel },
    ...cols.map((c) => ({ value: c.sort, label: c.head })),
  ];
  const asc = report.order === 'asc';
  return (
    <Stack gap="sm" hiddenFrom="sm" data-testid="report-cards">
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <Select
          label="Sort by"
          data={options}
          value={report.sort}
          allowDeselect={false}
          onChange={(v) => v && v !== report.sort && onSort(v)}
          style={{ flex: 1 }}
        />
        <ActionIcon
          variant="default"
          size={36}
          onClick={() => onSort(report.sort)}
          aria-label={
            asc
              ? 'Sorted lowest first: sort highest first'
              : 'Sorted highest first: sort lowest first'
          }
        >
          {asc ? <IconArrowUp size={18} aria-hidden /> : <IconArrowDown size={18} aria-hidden />}
        </ActionIcon>
      </Group>
      <Text size="xs" c="dimmed">
        {reportGroupHeading(groupLabel, report.group, report.timezone)}
      </Text>
      {report.rows.map((row) => (
        <FigureCard
          key={row.key}
          title={row.label}
          href={row.figures.calls > 0 ? rowHref?.(row) : undefined}
          cols={cols}
          f={row.figures}
          p={row.previous_figures}
          compare={compare}
          testId="report-card"
        />
      ))}
      <FigureCard
        title="Total"
        cols={cols}
        f={report.totals}
        p={report.previous_totals}
        compare={compare}
        testId="report-totals-card"
      />
    </Stack>
  );
}

/**
 * A report: the chart, then the table with a totals row. Every column sorts (on the server, so
 * the first 500 of thousands of publishers are the right ones); a row's name links to its leads.
 */
export function ReportView({
  report,
  groupLabel,
  withRevenue,
  onSort,
  rowHref,
  note,
}: {
  report: ViewReport;
  groupLabel: string;
  withRevenue: boolean;
  onSort: (sort: string) => void;
  /** Where a row drills into (the filtered leads list), or undefined for no link. */
  rowHref?: (row: ViewRow) => string | undefined;
  /** What the figures count, in words, right under the table (and the phone's cards). */
  note?: ReactNode;
}) {
  const cols = reportColumns(withRevenue);
  const compare = report.previous !== null;
  const timeGroup = report.group === 'day' || report.group === 'hour';
  const points = (timeGroup ? report.rows : report.rows.slice(0, 12)).map((r) => ({
    label: r.label,
    calls: r.figures.calls,
    payable: r.figures.payable_calls,
  }));
  const empty = report.totals.calls === 0;
  return (
    <Stack gap="md">
      <Card withBorder padding="lg">
        {empty ? (
          <Text c="dimmed" ta="center" py="xl">
            No calls in this period.
          </Text>
        ) : (
          <Suspense fallback={<Skeleton height={260} role="status" aria-label="Loading chart" />}>
            <ReportChart points={points} horizontal={!timeGroup} />
          </Suspense>
        )}
      </Card>
      <ReportCards
        report={report}
        groupLabel={groupLabel}
        cols={cols}
        onSort={onSort}
        rowHref={rowHref}
      />
      <Card withBorder padding={0} visibleFrom="sm">
        <ScrollArea type="auto">
          <Table
            striped
            highlightOnHover
            verticalSpacing="xs"
            horizontalSpacing={6}
            miw={withRevenue ? 900 : 720}
          >
            <Table.Thead>
              <Table.Tr>
                <SortHeader
                  label={groupLabel}
                  below={
                    report.group === 'day' || report.group === 'hour' ? report.timezone : undefined
                  }
                  sort="label"
                  report={report}
                  onSort={onSort}
                  align="left"
                />
                {cols.map((c) => (
                  <SortHeader
                    key={c.sort}
                    label={c.head}
                    sort={c.sort}
                    report={report}
                    onSort={onSort}
                    align="right"
                    title={c.title}
                  />
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.rows.map((row) => {
                const href = row.figures.calls > 0 ? rowHref?.(row) : undefined;
                return (
                  <Table.Tr key={row.key} data-testid="report-row">
                    {/* Days and hours on one line; names (offers, publishers) wrap. */}
                    <Table.Td
                      style={
                        timeGroup
                          ? { whiteSpace: 'nowrap' }
                          : { minWidth: 160, overflowWrap: 'anywhere' }
                      }
                    >
                      {href ? (
                        <Anchor component={Link} to={href} fz="sm">
                          {row.label}
                        </Anchor>
                      ) : (
                        row.label
                      )}
                    </Table.Td>
                    <FigureCells
                      cols={cols}
                      f={row.figures}
                      p={row.previous_figures}
                      compare={compare}
                    />
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr data-testid="report-totals">
                <Table.Th>Total</Table.Th>
                <FigureCells
                  cols={cols}
                  f={report.totals}
                  p={report.previous_totals}
                  compare={compare}
                  strong
                />
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </ScrollArea>
      </Card>
      {note}
      {report.groups > report.rows.length ? (
        <Text size="sm" c="dimmed">
          Showing the first {formatCount(report.rows.length)} of {formatCount(report.groups)} groups
          in this order; the totals count them all.
        </Text>
      ) : null}
    </Stack>
  );
}
