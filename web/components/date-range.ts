import { type ReportRange, reportRanges, resolveRange } from '@contract/report-days.ts';
import { displayTimeZone } from '@/lib/format.ts';

// A picked range and its days, without the picker (no Mantine): what the URL hooks need, so a
// screen can fetch the picker's widgets apart.

/** A picked range: a preset (days resolved in the network's zone) or custom days. */
export type DateRangeValue = { range: ReportRange | 'all'; from: string; to: string };

/** The first and last day a value covers in the network's zone, or null for "any date". */
export function rangeDays(
  v: DateRangeValue,
  zone: string = displayTimeZone(),
): { from: string; to: string } | null {
  if (v.range === 'all') return null;
  if (v.range === 'custom') return v.from && v.to ? { from: v.from, to: v.to } : null;
  return resolveRange(zone, { range: v.range });
}

/** Reads a range from URL parameters (`range`, `from`, `to`); `fallback` when absent. */
export function rangeFromParams(
  params: URLSearchParams,
  fallback: DateRangeValue['range'],
): DateRangeValue {
  const raw = params.get('range');
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  if (raw && (reportRanges as readonly string[]).includes(raw)) {
    return { range: raw as ReportRange, from, to };
  }
  // A link with days and no preset (a drill-down, an old bookmark) is a custom range.
  if (from && to) return { range: 'custom', from, to };
  return { range: fallback, from: '', to: '' };
}
