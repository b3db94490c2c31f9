import type { ReportRange } from '@contract/reports.ts';
import { displayTimeZone } from '@/lib/format.ts';
import { type DateRangeValue, rangeDays, rangeFromParams } from './date-range.ts';
import { useLatestSearchParams } from './use-report-params.ts';

/**
 * A dashboard's range in the URL (`?range=this_month`, or `range=custom&from=…&to=…`); none means
 * "Any date" (the all-time cards and the last 30 days). Shared by the admin dashboard and the
 * publisher overview.
 */
export function useDashboardRange() {
  const [params, change] = useLatestSearchParams();
  const value = rangeFromParams(params, 'all');
  const days = rangeDays(value);
  const setValue = (v: DateRangeValue) =>
    change((next) => {
      next.delete('from');
      next.delete('to');
      if (v.range === 'all') next.delete('range');
      else next.set('range', v.range);
      if (v.range === 'custom') {
        next.set('from', v.from);
        next.set('to', v.to);
      }
    });
  return {
    value,
    setValue,
    /** The days picked, or null for any date (or a custom range not picked yet). */
    days,
    /** The query of the range endpoints. */
    query: {
      range: (value.range === 'all' ? 'last_7_days' : value.range) as ReportRange,
      ...(value.range === 'custom' && { from: value.from, to: value.to }),
    },
    /** "2026-11-01 – 2026-11-30 (America/New_York)", or undefined for any date. */
    period: days
      ? `${days.from === days.to ? days.from : `${days.from} – ${days.to}`} (${displayTimeZone()})`
      : undefined,
  };
}
