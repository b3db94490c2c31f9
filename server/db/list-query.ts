import { type AnyColumn, and, asc, desc, gte, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Page, PageQuery } from '../../contract/list.ts';

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
export function pageWindow(q: PageQuery) {
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

/**
 * ORDER BY the list's chosen `sort` among its whitelisted `columns` (the contract's enum is the
 * whitelist, so a request can never name another column), then id.
 */
export function sortBy<K extends string>(
  columns: Record<K, AnyColumn | SQL>,
  query: { sort: K; order: 'asc' | 'desc' },
  id: AnyColumn,
  opts: { nullable?: boolean } = {},
): SQL[] {
  return orderBy(columns[query.sort], query.order, id, opts);
}

/** `q` as a case-insensitive part of any of the columns; undefined (no filter) when blank. */
export function searchAny(q: string | undefined, ...columns: (AnyColumn | SQL)[]): SQL | undefined {
  if (!q) return undefined;
  const pattern = likePattern(q);
  return or(...columns.map((c) => sql`${c} ilike ${pattern}`));
}

/** `from` ≤ column < end of `to` (see fromBound / toBoundExclusive); undefined when neither. */
export function dateBounds(
  column: AnyColumn,
  range: { from?: string | undefined; to?: string | undefined },
): SQL | undefined {
  return and(
    range.from ? gte(column, fromBound(range.from)) : undefined,
    range.to ? lt(column, toBoundExclusive(range.to)) : undefined,
  );
}

/**
 * One page of a list, answered as `Page<T>`: the rows of the page window (the caller's query
 * with its WHERE and ORDER BY, given LIMIT/OFFSET here) and the total under the same WHERE,
 * read side by side, each row turned into the answer's item.
 */
export async function listPage<Row, Item>(opts: {
  query: PageQuery;
  rows: (window: { limit: number; offset: number }) => PromiseLike<Row[]>;
  count: PromiseLike<{ n: number }[]>;
  toItem: (row: Row) => Item | Promise<Item>;
}): Promise<Page<Item>> {
  const { query } = opts;
  const [rows, [total]] = await Promise.all([opts.rows(pageWindow(query)), opts.count]);
  return {
    items: await Promise.all(rows.map(opts.toItem)),
    total: total?.n ?? 0,
    page: query.page,
    page_size: query.page_size,
  };
}
