import type {
  DashboardRangeQuery,
  PublisherRangeOverview,
  PublisherReport,
  PublisherReportQuery,
} from '../../../contract/reports.ts';
import type { CsvCell } from '../../db/csv.ts';
import type { ListRead } from '../../db/list-query.ts';
import { amountCents, centsMoney } from '../../db/money.ts';
import { networkTimeZone } from '../../db/settings.ts';
import { keptAnswer } from '../../http/serializer.ts';
import { balanceOf } from '../money/index.ts';
import { dailyFigures, dashboardDays } from './dashboard.queries.ts';
import { reportCsv, withoutRevenue } from './report-csv.ts';
import { buildReport, type Report } from './reports.queries.ts';

/** One publisher's report: only their own leads (their rollup rows), without revenue or margin. */
export async function getPublisherReport(
  opts: ListRead<PublisherReportQuery> & { publisherId: string },
): Promise<PublisherReport> {
  const tz = await networkTimeZone(opts.db);
  const r = await buildReport(opts.db, { owner: opts.publisherId, tz, query: opts.query });
  let mine = withoutRevenueOf.get(r);
  if (!mine) {
    mine = keptAnswer(withoutRevenueReport(r));
    withoutRevenueOf.set(r, mine);
  }
  return mine;
}

/** The publisher's form of each kept report (buildReport answers a kept one as the same object). */
const withoutRevenueOf = new WeakMap<Report, PublisherReport>();

function withoutRevenueReport(r: Report): PublisherReport {
  return {
    ...r,
    rows: r.rows.map((row) => ({
      key: row.key,
      label: row.label,
      figures: withoutRevenue(row.figures),
      previous_figures: row.previous_figures ? withoutRevenue(row.previous_figures) : null,
    })),
    totals: withoutRevenue(r.totals),
    previous_totals: r.previous_totals ? withoutRevenue(r.previous_totals) : null,
  };
}

/** The publisher's report as CSV lines. */
export async function publisherReportCsv(
  opts: ListRead<PublisherReportQuery> & { publisherId: string },
): Promise<CsvCell[][]> {
  const tz = await networkTimeZone(opts.db);
  const r = await buildReport(opts.db, { owner: opts.publisherId, tz, query: opts.query });
  return reportCsv(r, { revenue: false });
}

/**
 * The overview over a picked range of the network's days: the publisher's calls and the payout
 * of the payable ones (their own rollup rows). Pending Payouts is what is unpaid now, whatever
 * the range (money/figures.ts): money waiting does not depend on the days looked at.
 */
export async function getPublisherRangeOverview(
  opts: ListRead<DashboardRangeQuery> & { publisherId: string; now?: Date },
): Promise<PublisherRangeOverview> {
  const tz = await networkTimeZone(opts.db);
  const { from, to } = dashboardDays(tz, opts.query, opts.now);
  const [days, balance] = await Promise.all([
    dailyFigures(opts.db, { owner: opts.publisherId, from, to }),
    balanceOf(opts.db, opts.publisherId),
  ]);
  let earned = 0n;
  for (const d of days) earned += amountCents(d.payout);
  return {
    timezone: tz,
    range: opts.query.range,
    from,
    to,
    total_earnings: centsMoney(earned),
    total_leads: days.reduce((n, d) => n + d.calls, 0),
    pending_payouts: balance.unpaid,
    balance,
    days: days.map((d) => ({ date: d.date, leads: d.calls, earnings: d.payout })),
  };
}
