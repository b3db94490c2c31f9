import { type AnyColumn, asc, desc, type SQL, sql } from 'drizzle-orm';

/** Money from numeric(12,2) (a string) as a JSON number. */
export const toMoney = (v: string | number | null | undefined): number =>
  v === null || v === undefined ? 0 : Math.round(Number(v) * 100) / 100;

/** `$1,234.50`, for activity descriptions. */
export const formatUsd = (v: number): string =>
  `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Postgres unique-violation (23505), whether or not the driver error is wrapped. */
export function isUniqueViolation(err: unknown): boolean {
  let e: unknown = err;
  for (let i = 0; i < 3 && e && typeof e === 'object'; i++) {
    if ((e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** `%q%` for ILIKE, with the user's own `%`, `_` and `\` taken literally. */
export const likePattern = (q: string): string => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * ORDER BY the chosen column, then id in the same direction, so pages are stable when values
 * repeat. A nullable column puts its empty values (NULL) last whichever the direction; NOT NULL
 * columns keep plain ASC/DESC so an index in that order (e.g. leads by publisher and time) serves.
 */
export function sortedBy(
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
