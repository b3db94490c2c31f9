import { type AnyColumn, asc, desc, type SQL, sql } from 'drizzle-orm';

/** Answers a money column (numeric string) as a JSON number; exact for ≤ 2 decimals. */
export const toMoney = (v: string | number | null | undefined): number => Number(v ?? 0);

/** Money for a numeric(12,2) column: two decimals, as the string the driver expects. */
export const fromMoney = (v: number): string => v.toFixed(2);

/** ISO string for answers. */
export const iso = (d: Date): string => d.toISOString();

/** `%q%` for ILIKE with the user's own % and _ taken literally. */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** ORDER BY the chosen column, then id, so pages are stable when values repeat. */
export function orderBy(column: AnyColumn | SQL, order: 'asc' | 'desc', id: AnyColumn): SQL[] {
  return order === 'asc' ? [asc(column), asc(id)] : [desc(column), desc(id)];
}

/** LIMIT/OFFSET of a 1-based page. */
export function pageWindow(q: { page: number; page_size: number }) {
  return { limit: q.page_size, offset: (q.page - 1) * q.page_size };
}

/** count(*) as a JS number. */
export const countAll = () => sql<number>`count(*)::int`;

/** Start of a date filter: a bare date means its first instant (UTC). */
export function fromBound(v: string): Date {
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00.000Z` : v);
}

/**
 * End of a date filter, exclusive: a bare date covers its whole day (UTC), so the bound is the
 * next midnight; a date-time is inclusive, so the bound is one millisecond later.
 */
export function toBoundExclusive(v: string): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) {
    const d = new Date(`${v}T00:00:00.000Z`);
    d.setUTCDate(d.getUTCDate() + 1);
    return d;
  }
  return new Date(new Date(v).getTime() + 1);
}
