import type { ReportRange } from '@contract/reports.ts';
import { useRef } from 'react';
import { useSearchParams } from 'react-router';
import { type DateRangeValue, rangeFromParams } from './date-range.ts';

/**
 * The URL's search parameters and a setter that builds on the last ones set, even before that
 * change has rendered: the router applies a change in a transition, and its own functional
 * update still reads the parameters of the last render, so two quick changes (a period, then a
 * grouping) would keep only the second.
 */
export function useLatestSearchParams() {
  const [params, setParams] = useSearchParams();
  const latest = useRef(params);
  const seen = useRef(params.toString());
  // A change from elsewhere (a link, back and forward) replaces what this hook last set.
  if (params.toString() !== seen.current) {
    seen.current = params.toString();
    latest.current = params;
  }
  const change = (edit: (next: URLSearchParams) => void) => {
    const next = new URLSearchParams(latest.current);
    edit(next);
    latest.current = next;
    setParams(next, { replace: true });
  };
  return [params, change] as const;
}

/**
 * A report's state in the URL (`?range=last_month&group=offer&sort=payout&order=asc&compare=true`,
 * or `range=custom&from=…&to=…`), so a reload or a shared link shows the same report.
 */
export function useReportParams<G extends string>(groups: readonly G[], fallback: G) {
  const [params, change] = useLatestSearchParams();
  const range = rangeFromParams(params, 'last_7_days');
  const rawGroup = params.get('group') ?? '';
  const group = (groups as readonly string[]).includes(rawGroup) ? (rawGroup as G) : fallback;
  const sort = params.get('sort') || undefined;
  const rawOrder = params.get('order');
  const order = rawOrder === 'asc' || rawOrder === 'desc' ? rawOrder : undefined;
  const compare = params.get('compare') === 'true';

  const update = (changes: Record<string, string | null>) =>
    change((next) => {
      for (const [k, v] of Object.entries(changes)) {
        if (v === null || v === '') next.delete(k);
        else next.set(k, v);
      }
    });

  /** The query both report APIs take. */
  const query = {
    range: (range.range === 'all' ? 'last_7_days' : range.range) as ReportRange,
    ...(range.range === 'custom' && { from: range.from, to: range.to }),
    group,
    ...(sort && { sort }),
    ...(order && { order }),
    ...(compare && { compare: 'true' as const }),
  };

  return {
    range,
    group,
    compare,
    query,
    setRange: (v: DateRangeValue) =>
      update({
        range: v.range,
        from: v.range === 'custom' ? v.from : null,
        to: v.range === 'custom' ? v.to : null,
      }),
    setGroup: (g: G) => update({ group: g, sort: null, order: null }),
    setCompare: (on: boolean) => update({ compare: on ? 'true' : null }),
    /** A new column sorts in its first direction (names A→Z, figures highest first); again flips. */
    sortBy: (col: string, current: { sort: string; order: 'asc' | 'desc' } | undefined) =>
      current && current.sort === col
        ? update({ sort: col, order: current.order === 'asc' ? 'desc' : 'asc' })
        : update({ sort: col, order: col === 'label' ? 'asc' : 'desc' }),
  };
}
