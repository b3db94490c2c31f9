// A report's ranges and the days of the network's time zone, without zod: the dashboards' first
// screens pick a range before they need any schema (scripts/bundle-report.ts holds them to a
// budget). contract/reports.ts re-exports all of it.
import { dateFormat } from './date-formats.ts';

/** The ranges a report offers; `custom` takes `from` and `to`. */
export const reportRanges = [
  'today',
  'yesterday',
  'last_7_days',
  'last_30_days',
  'this_month',
  'last_month',
  'custom',
] as const;
export type ReportRange = (typeof reportRanges)[number];

export const reportRangeLabels: Record<ReportRange, string> = {
  today: 'Today',
  yesterday: 'Yesterday',
  last_7_days: 'Last 7 days',
  last_30_days: 'Last 30 days',
  this_month: 'This month',
  last_month: 'Last month',
  custom: 'Custom',
};

// ---------------------------------------------------------------------------
// Days of the network's time zone (server and web alike)
// ---------------------------------------------------------------------------

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of an instant in zone `tz`. */
export function dayIn(tz: string, at: Date): string {
  // en-CA writes dates as YYYY-MM-DD.
  return dateFormat('en-CA', {
    timeZone: tz,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/** A day `n` days after `day` (calendar arithmetic, no zone involved). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

export const firstOfMonth = (day: string) => `${day.slice(0, 8)}01`;
export function addMonths(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + n, 1);
  return d.toISOString().slice(0, 10);
}

/** The first and last day of a preset (today, …) in zone `tz`, or of a custom range. */
export function resolveRange(
  tz: string,
  q: { range: ReportRange; from?: string | undefined; to?: string | undefined },
  now: Date = new Date(),
): { from: string; to: string } {
  const today = dayIn(tz, now);
  switch (q.range) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday':
      return { from: addDays(today, -1), to: addDays(today, -1) };
    case 'last_7_days':
      return { from: addDays(today, -6), to: today };
    case 'last_30_days':
      return { from: addDays(today, -29), to: today };
    case 'this_month':
      return { from: firstOfMonth(today), to: today };
    case 'last_month': {
      const first = addMonths(today, -1);
      return { from: first, to: addDays(firstOfMonth(today), -1) };
    }
    default:
      return { from: q.from as string, to: q.to as string };
  }
}

/** The equal number of days just before [from, to]. */
export function previousRange(from: string, to: string): { from: string; to: string } {
  const n = daysBetween(from, to);
  return { from: addDays(from, -n), to: addDays(from, -1) };
}
