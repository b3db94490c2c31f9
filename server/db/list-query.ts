import { type AnyColumn, asc, desc, type SQL, sql } from 'drizzle-orm';

/** `%q%` for ILIKE, with the user's own `%`, `_` and `\` taken literally. */
export const likePattern = (q: string): string => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * ORDER BY the chosen column, then id in the same direction, so pages are stable when values
 * repeat. A nullable column puts its empty values (NULL) last whichever the direction; NOT NULL
 * columns keep plain ASC/DESC so an index in that order (e.g. leads by publisher and time) serves.
 */
export function orderBy(
  column: AnyColumn | SQL,
  order: 'asc' | 'desc',
  id: AnyColumn,
  opts: { nullable?: boolean } = {},
): SQL[] {
  const nulls = opts.nullable ? sql` nulls last` : sql``;
  return order === 'asc'
    ? [sql`${column} asc${nulls}`, asc(id)]
    : [sql`${column} desc${nulls}`, desc(id)];
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
