import type { PublisherReportFigures } from '../../../contract/reports.ts';
import {
  changePercent,
  isNewFigure,
  reportGroupHeading,
  reportGroupLabels,
} from '../../../contract/reports.ts';
import type { CsvCell } from '../../db/csv.ts';
import type { Figures } from './report-figures.ts';
import type { Report } from './reports.queries.ts';

/**
 * Figures without revenue, margin, disputes and which payable calls carry a revenue (what a
 * publisher's report shows): the publisher's own figures only.
 */
export function withoutRevenue(f: Figures): PublisherReportFigures {
  return {
    calls: f.calls,
    payable_calls: f.payable_calls,
    payable_rate: f.payable_rate,
    avg_duration: f.avg_duration,
    payout: f.payout,
  };
}

/**
 * The report as CSV: the rows and the totals row exactly as the screen shows them (same
 * columns, same order, same rounding), plain numbers, the zone in the first column's header
 * when it holds days or hours ("Day (America/New_York)"; "Publisher" carries none). With a comparison, each figure is followed by its previous value and the change in %
 * ("new" when there was nothing before).
 */
export function reportCsv(report: Report, opts: { revenue: boolean }): CsvCell[][] {
  // A kept report (buildReport answers it again as the same object) has its table made once.
  const kept = opts.revenue ? keptWithRevenue : keptWithoutRevenue;
  let table = kept.get(report);
  if (!table) {
    table = tableOf(report, opts);
    kept.set(report, table);
  }
  return table;
}
const keptWithRevenue = new WeakMap<Report, CsvCell[][]>();
const keptWithoutRevenue = new WeakMap<Report, CsvCell[][]>();

function tableOf(report: Report, opts: { revenue: boolean }): CsvCell[][] {
  const cols: { head: string; get: (f: Figures) => number | null }[] = [
    { head: 'Calls', get: (f) => f.calls },
    { head: 'Payable calls', get: (f) => f.payable_calls },
    { head: 'Payable %', get: (f) => f.payable_rate },
    { head: 'Avg duration (s)', get: (f) => f.avg_duration },
    { head: 'Payout', get: (f) => f.payout },
  ];
  if (opts.revenue) {
    // The margin's rule in its header, and what it leaves out beside it (the screen's note).
    cols.push({ head: 'Revenue', get: (f) => f.revenue });
    cols.push({ head: 'Margin (calls with revenue)', get: (f) => f.margin });
    cols.push({ head: 'Margin %', get: (f) => f.margin_pct });
    cols.push({ head: 'Payable calls without revenue', get: (f) => f.payable_without_revenue });
    cols.push({ head: 'Payout without revenue', get: (f) => f.payout_without_revenue });
    cols.push({ head: 'Disputes', get: (f) => f.disputes });
  }
  const compared = report.previous !== null;
  const header: CsvCell[] = [
    reportGroupHeading(reportGroupLabels[report.group], report.group, report.timezone),
  ];
  for (const c of cols) {
    header.push(c.head);
    if (compared) header.push(`${c.head} (previous)`, `${c.head} change %`);
  }
  const cells = (label: string, f: Figures, p: Figures | null) => {
    const out: CsvCell[] = [label];
    for (const c of cols) {
      out.push(c.get(f));
      if (compared) {
        const prev = p ? c.get(p) : null;
        // Nothing before and something now: "new", as the screen says, not an empty change.
        out.push(prev, isNewFigure(c.get(f), prev) ? 'new' : changePercent(c.get(f), prev));
      }
    }
    return out;
  };
  return [
    header,
    ...report.rows.map((r) => cells(r.label, r.figures, r.previous_figures)),
    cells('Total', report.totals, report.previous_totals),
  ];
}
