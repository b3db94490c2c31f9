// The figures of a report: the SQL that sums the rollups' figure columns, the answer's figures
// from those sums (money in whole cents until server/db/money.ts makes them amounts), and how
// each sortable column orders them (in SQL and in memory alike).

import { type SQL, sql } from 'drizzle-orm';
import type { AdminReportFigures, AdminReportGroup } from '../../../contract/reports.ts';
import { centsMoney, numberCents } from '../../db/money.ts';
import type { KeyFigures } from './report-cache.ts';

export type ReportGroup = AdminReportGroup;
export type Figures = AdminReportFigures;

/** Sums of the figure columns of a rollup table (slots and rows added up), of alias `a.` if given. */
export const sumsOf = (a = '') =>
  sql.raw(`coalesce(sum(${a}calls), 0)::bigint as calls,
  coalesce(sum(${a}payable), 0)::bigint as payable,
  coalesce(sum(${a}duration_seconds), 0)::bigint as duration_seconds,
  coalesce(sum(${a}payout), 0) as payout,
  coalesce(sum(${a}revenue), 0) as revenue,
  coalesce(sum(${a}revenue_calls), 0)::bigint as revenue_calls,
  coalesce(sum(${a}revenue_payable), 0)::bigint as revenue_payable,
  coalesce(sum(${a}revenue_payout), 0) as revenue_payout,
  coalesce(sum(${a}disputes), 0)::bigint as disputes`);
export const sums = sumsOf();
export const figureColumns = sql.raw(
  'calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes',
);

/** The figure columns of a left-joined aggregate `x`, zero where it had no row. */
export const zeroIfNull = sql.raw(`coalesce(x.calls, 0) as calls, coalesce(x.payable, 0) as payable,
  coalesce(x.duration_seconds, 0) as duration_seconds, coalesce(x.payout, 0) as payout,
  coalesce(x.revenue, 0) as revenue, coalesce(x.revenue_calls, 0) as revenue_calls,
  coalesce(x.revenue_payable, 0) as revenue_payable, coalesce(x.revenue_payout, 0) as revenue_payout,
  coalesce(x.disputes, 0) as disputes`);

/**
 * The answer's figures from a group's sums (money in whole cents: the differences are exact, and
 * only server/db/money.ts turns cents into the JSON's amounts). Margin is like with like: the
 * revenue of the calls that carry one less the payout of the payable ones among them; the payable
 * calls without a revenue, and their payout, are answered beside it (in `payout`, not in the
 * margin).
 */
export function toFigures(f: KeyFigures): Figures {
  const money = (c: number) => centsMoney(numberCents(c));
  const withRevenue = f.revenueCalls > 0;
  return {
    calls: f.calls,
    payable_calls: f.payable,
    payable_rate: f.calls > 0 ? Math.round((f.payable / f.calls) * 1000) / 10 : null,
    avg_duration: f.calls > 0 ? Math.round(f.duration / f.calls) : null,
    payout: money(f.payoutCents),
    revenue: withRevenue ? money(f.revenueCents) : null,
    margin: withRevenue ? money(f.revenueCents - f.revenuePayoutCents) : null,
    margin_pct:
      withRevenue && f.revenueCents !== 0
        ? Math.round(((f.revenueCents - f.revenuePayoutCents) / f.revenueCents) * 1000) / 10
        : null,
    payable_without_revenue: f.payable - f.revenuePayable,
    payout_without_revenue: money(f.payoutCents - f.revenuePayoutCents),
    disputes: f.disputes,
  };
}

/** ORDER BY expressions of the sortable figures over an aggregate `g`. */
const FIGURE_ORDER = new Map<string, string>([
  ['calls', 'g.calls'],
  ['payable_calls', 'g.payable'],
  ['payable_rate', 'g.payable::numeric / nullif(g.calls, 0)'],
  ['avg_duration', 'g.duration_seconds::numeric / nullif(g.calls, 0)'],
  ['payout', 'g.payout'],
  ['revenue', 'case when g.revenue_calls > 0 then g.revenue end'],
  ['margin', 'case when g.revenue_calls > 0 then g.revenue - g.revenue_payout end'],
  [
    'margin_pct',
    'case when g.revenue_calls > 0 then (g.revenue - g.revenue_payout) / nullif(g.revenue, 0) end',
  ],
  ['payout_without_revenue', 'g.payout - g.revenue_payout'],
  ['disputes', 'g.disputes'],
]);

/** ORDER BY expressions of the sortable columns over an aggregate `g` with `label`. */
export function orderExpr(sort: string, group: ReportGroup): SQL {
  const figure = FIGURE_ORDER.get(sort);
  if (figure) return sql.raw(figure);
  return group === 'day' || group === 'hour' ? sql.raw('g.key') : sql.raw('lower(g.label)');
}

/**
 * What a sort compares, as orderExpr does in SQL (null sorts last either way), read from a
 * key's figures at `o` in `sums` (calls, payable, duration, payout cents, revenue cents,
 * revenue calls, disputes, revenue payable, revenue payout cents: report-cache.ts FIGURES).
 */
export function sortValue(sort: string): (sums: Float64Array, o: number) => number | null {
  switch (sort) {
    case 'payable_calls':
      return (s, o) => s[o + 1]!;
    case 'payable_rate':
      return (s, o) => (s[o] === 0 ? null : s[o + 1]! / s[o]!);
    case 'avg_duration':
      return (s, o) => (s[o] === 0 ? null : s[o + 2]! / s[o]!);
    case 'payout':
      return (s, o) => s[o + 3]!;
    case 'revenue':
      return (s, o) => (s[o + 5]! > 0 ? s[o + 4]! : null);
    case 'margin':
      return (s, o) => (s[o + 5]! > 0 ? s[o + 4]! - s[o + 8]! : null);
    case 'margin_pct':
      return (s, o) =>
        s[o + 5]! > 0 && s[o + 4]! !== 0 ? (s[o + 4]! - s[o + 8]!) / s[o + 4]! : null;
    case 'payout_without_revenue':
      return (s, o) => s[o + 3]! - s[o + 8]!;
    case 'disputes':
      return (s, o) => s[o + 6]!;
    default:
      return (s, o) => s[o]!;
  }
}
