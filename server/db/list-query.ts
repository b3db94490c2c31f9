import {
  type AnyColumn,
  and,
  asc,
  desc,
  getTableColumns,
  gte,
  inArray,
  is,
  lt,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { PgColumn, type PgSelect, type PgTable } from 'drizzle-orm/pg-core';
import { BAD_CURSOR_MESSAGE, type Page, type PageQuery, TOTAL_CAP } from '../../contract/list.ts';
import { AppError } from '../errors.ts';
import type { DbOrTx } from './client.ts';
import { networkTimeZoneSql } from './settings.ts';

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

const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);

/** The first instant of `day` + `plus` days in the network's time zone (read in the statement). */
export const zoneDayStart = (day: string, plus = 0): SQL =>
  sql`((${day}::date + ${plus}::int)::timestamp at time zone ${networkTimeZoneSql})`;

/**
 * `from` ≤ column < end of `to`; undefined when neither. A bare day is a day of the network's
 * time zone (settings.timezone, read inside the statement): `from` its first instant, `to` the
 * first instant of the next day. A date-time is taken as it is (`to` inclusive).
 */
export function dateBounds(
  column: AnyColumn,
  range: { from?: string | undefined; to?: string | undefined },
): SQL | undefined {
  return and(
    range.from
      ? isDay(range.from)
        ? gte(column, zoneDayStart(range.from))
        : gte(column, fromBound(range.from))
      : undefined,
    range.to
      ? isDay(range.to)
        ? lt(column, zoneDayStart(range.to, 1))
        : lt(column, toBoundExclusive(range.to))
      : undefined,
  );
}

// ---------------------------------------------------------------------------
// Keyset pages, cursors and totals
// ---------------------------------------------------------------------------

/**
 * The order of a list as a keyset: the sort expression and its direction, then id in the same
 * direction (`orderBy`). A page after a cursor is the rows past the cursor's (value, id) in that
 * order, which an index ending in id, in the same direction, reads as one range scan.
 */
export type Keyset = {
  /** The sort's name as the API knows it; a cursor of another sort or order is refused. */
  name: string;
  column: AnyColumn | SQL;
  order: 'asc' | 'desc';
  id: AnyColumn;
  /** The column may be NULL (the empty values come last in both directions). */
  nullable?: boolean;
  /** SQL type the cursor's value is cast back to: the column's own, or text for expressions. */
  type: string;
  /** SQL type of the id (uuid, or bigint for the audit log). */
  idType: string;
  /** Allowed values of an enum column (a cursor naming another is refused). */
  values?: readonly string[];
};

/** The keyset of the list's chosen `sort` among its whitelisted `columns` (see `sortBy`). */
export function keysetOf<K extends string>(
  columns: Record<K, AnyColumn | SQL>,
  query: { sort: K; order: 'asc' | 'desc' },
  id: AnyColumn,
  opts: { nullable?: boolean } = {},
): Keyset {
  return keyset(query.sort, columns[query.sort], query.order, id, opts);
}

/** The keyset of one sort expression (a column, or SQL compared as text) then id. */
export function keyset(
  name: string,
  column: AnyColumn | SQL,
  order: 'asc' | 'desc',
  id: AnyColumn,
  opts: { nullable?: boolean } = {},
): Keyset {
  const col = is(column, PgColumn) ? column : undefined;
  const values = col?.enumValues;
  return {
    name,
    column,
    order,
    id,
    // A column that may be NULL sorts its NULLs last (see orderBy); an expression says so.
    nullable: opts.nullable ?? (col ? !col.notNull : false),
    type: col ? castType(col) : 'text',
    idType: is(id, PgColumn) ? castType(id) : 'uuid',
    ...(values?.length ? { values } : {}),
  };
}

/** Newest first: `created_at` descending, then id (a log, a queue, a table that only grows). */
export const newestFirst = (table: { createdAt: AnyColumn; id: AnyColumn }): Keyset =>
  keyset('created_at', table.createdAt, 'desc', table.id);

/** The type a column's value is cast to (a serial is an integer type, not a castable one). */
function castType(col: PgColumn): string {
  const t = col.getSQLType();
  return t === 'bigserial'
    ? 'bigint'
    : t === 'serial'
      ? 'integer'
      : t === 'smallserial'
        ? 'smallint'
        : t;
}

/** The sort value of a row as text: select it as `sortKey` (timestamps keep microseconds). */
export const sortKeyOf = (k: Keyset): SQL<string | null> => sql<string | null>`(${k.column})::text`;

type Cursor = { value: string | null; id: string };

/** What a read answering a route's query string takes (a list, a report): the connection and the validated query. */
export type ListRead<Query> = { db: DbOrTx; query: Query };

/** What a cursor is made of: the row's id and its sort value as text (`sortKeyOf`). */
export type RowKey = { id: string | number; sortKey: string | null };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a cursor's text can be cast to the keyset's type (so a bad link is a 400, not a 500). */
function validValue(k: Keyset, v: string): boolean {
  if (k.values) return k.values.includes(v);
  if (/^timestamp/.test(k.type)) {
    return /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:\d{2})?)?$/.test(v);
  }
  if (k.type === 'date') return /^\d{4}-\d{2}-\d{2}$/.test(v);
  if (/^(numeric|integer|bigint|smallint|real|double)/.test(k.type)) {
    return /^-?\d{1,20}(\.\d{1,10})?$/.test(v);
  }
  return v.length <= 1000;
}

/** A cursor: base64url of `[sort, order, value, id]`, the last row of the page it follows. */
export function encodeCursor(k: Keyset, row: RowKey): string {
  const cursor = [k.name, k.order, row.sortKey, String(row.id)];
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

const badCursor = () =>
  new AppError('validation_failed', BAD_CURSOR_MESSAGE, {
    details: { after: [BAD_CURSOR_MESSAGE] },
  });

/** Reads a cursor of this keyset; anything else (edited, another sort or order) is a 400. */
export function decodeCursor(k: Keyset, text: string): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) throw badCursor();
  const [name, order, value, id] = parsed as unknown[];
  if (name !== k.name || order !== k.order) throw badCursor();
  const idPattern = k.idType === 'uuid' ? uuidPattern : /^\d{1,18}$/;
  if (typeof id !== 'string' || !idPattern.test(id)) throw badCursor();
  if (value === null ? !k.nullable : typeof value !== 'string' || !validValue(k, value)) {
    throw badCursor();
  }
  return { value: value as string | null, id };
}

/**
 * The rows after a cursor in the keyset's order. A NOT NULL sort is a row comparison
 * `(sort, id) < (v, id)`, which PostgreSQL answers as one range scan of an index on
 * (sort, id); a nullable sort spells out that its NULLs come last.
 */
export function afterCursor(k: Keyset, c: Cursor): SQL {
  const op = k.order === 'asc' ? sql`>` : sql`<`;
  const id = sql`${c.id}::${sql.raw(k.idType)}`;
  if (c.value === null) return sql`(${k.column} is null and ${k.id} ${op} ${id})`;
  const v = sql`${c.value}::${sql.raw(k.type)}`;
  if (!k.nullable) return sql`(${k.column}, ${k.id}) ${op} (${v}, ${id})`;
  return sql`(${k.column} ${op} ${v} or (${k.column} = ${v} and ${k.id} ${op} ${id}) or ${k.column} is null)`;
}

/** A list's total and whether it is exact (false: the list holds more than `total`). */
export type Total = { total: number; exact: boolean };

/** count(*) of a query's rows, exact: for small tables, where it is cheap. */
export async function exactCount(count: PromiseLike<{ n: number }[]>): Promise<Total> {
  const [row] = await count;
  return { total: row?.n ?? 0, exact: true };
}

/**
 * The rows of `matching` (a `select 1 … where …`) counted up to `TOTAL_CAP + 1`: exact when
 * at most TOTAL_CAP match, else `TOTAL_CAP` and not exact. At most ~10k index entries are read
 * however big the table, instead of count(*) over every matching row on every page view.
 */
export async function cappedCount(
  db: DbOrTx,
  // biome-ignore lint/suspicious/noExplicitAny: any select builder of the caller's query
  matching: { limit: (n: number) => any },
): Promise<Total> {
  const inner = matching.limit(TOTAL_CAP + 1).as('capped');
  const [row] = await db.select({ n: countAll() }).from(inner);
  const n = row?.n ?? 0;
  return n > TOTAL_CAP ? { total: TOTAL_CAP, exact: false } : { total: n, exact: true };
}

/**
 * The rows of `table` matching `where` counted for a list's total: `exact` is count(*) (small
 * tables: a buyer's campaigns, the offers), `capped` counts up to TOTAL_CAP (`cappedCount`).
 */
export function countRows(
  db: DbOrTx,
  table: PgTable,
  where: SQL | undefined,
  how: 'exact' | 'capped',
): Promise<Total> {
  return how === 'exact'
    ? exactCount(db.select({ n: countAll() }).from(table).where(where))
    : cappedCount(db, db.select({ one: sql`1` }).from(table).where(where));
}

/**
 * `countRows(…, 'capped')` of a list whose search reads names from joined tables: `join` adds
 * those joins to the count only when there is a `search`, as without one they cost time for
 * nothing.
 */
export function countSearched(
  db: DbOrTx,
  table: PgTable,
  where: SQL | undefined,
  search: string | undefined,
  join: (matching: PgSelect) => PgSelect,
): Promise<Total> {
  const matching = db.select({ one: sql`1` }).from(table).$dynamic();
  return cappedCount(db, (search ? join(matching) : matching).where(where));
}

/** What one page reads: the caller's query with these pieces plugged in. */
export type PageWindow = {
  /** LIMIT: one more than the page, so the answer knows whether a next page exists. */
  limit: number;
  /** OFFSET: 0 after a cursor, else the page number's rows. */
  offset: number;
  /** AND it to the WHERE: the rows past the cursor (undefined without one). */
  after: SQL | undefined;
  /**
   * The cursor `after` was made from, as read from `after=` (undefined without one, and when a
   * seek made `after`): for a list that bounds more than the rows by it (a sort by a joined
   * column can skip the joined rows before the cursor's value).
   */
  cursor?: { value: string | null; id: string } | undefined;
  /** ORDER BY: the sort, then id in the same direction. */
  orderBy: SQL[];
  /** That direction (the far-end read of a page turns it round). */
  direction: 'asc' | 'desc';
  /** Select it as `sortKey` (the next cursor is made from the last row's). */
  sortKey: SQL<string | null>;
};

/**
 * The page's part of a list query: WHERE the list's filter and the rows past the cursor, ORDER
 * BY, LIMIT and OFFSET of the window. `select` is the list's select and joins, `.$dynamic()`.
 */
export function pageOf<T extends PgSelect>(select: T, where: SQL | undefined, w: PageWindow) {
  return select
    .where(and(where, w.after))
    .orderBy(...w.orderBy)
    .limit(w.limit)
    .offset(w.offset);
}

/**
 * A deferred join's page: the ids of the window's rows are read alone from the (sort, id) index
 * of `id`'s table (`pageOf`), and `select` (the list's columns and joins, `.$dynamic()`) joins
 * the rest (names, titles) for that page's rows only, in the list's order.
 */
export function deferredPage<T extends PgSelect>(
  db: DbOrTx,
  select: T,
  id: PgColumn,
  where: SQL | undefined,
  w: PageWindow,
) {
  const ids = pageOf(db.select({ id }).from(id.table).$dynamic(), where, w);
  return select.where(inArray(id, ids)).orderBy(...w.orderBy);
}

/**
 * `listPage`'s rows for a list of one table's rows: every column of `table` and the `sortKey`,
 * filtered by `where`, in the window (see `pageOf`).
 */
export function tableRows<T extends PgTable>(db: DbOrTx, table: T, where: SQL | undefined) {
  const columns = getTableColumns(table);
  return (w: PageWindow) =>
    // Drizzle cannot infer a select over a generic table; every column of `table` selected
    // is its $inferSelect row, and the sortKey beside it.
    pageOf(
      db
        .select({ ...columns, sortKey: w.sortKey })
        .from(table as PgTable)
        .$dynamic(),
      where,
      w,
    ) as PromiseLike<(T['$inferSelect'] & { sortKey: string | null })[]>;
}

/**
 * Where a page number's rows start, found without reading the rows before them: `where` leaves
 * out the first `skipped` rows of the list in the window's direction (whole days counted by a
 * maintained aggregate, see the leads list), so the page is an OFFSET of `offset − skipped`
 * past it instead of `offset`.
 */
export type Seek = { where: SQL; skipped: number };

/** A page number's OFFSET from which `listPage` asks the list's `seek` (below it, ~1 ms). */
export const SEEK_FROM = 1_000;

/**
 * One page of a list, answered as `Page<T>`. With `after` (a cursor) the page is the rows past
 * it; otherwise the page number's rows (`offset`; a big list reads the page's ids alone from
 * its index first, a "deferred join", see the leads list). The total comes from `exactTotal`
 * when the caller has one (e.g. a maintained aggregate answers undefined when it cannot),
 * otherwise from `count` (`cappedCount` on big tables, `exactCount` on small ones); it is read
 * beside the rows.
 */
export async function listPage<Row, Item>(opts: {
  query: PageQuery;
  keyset: Keyset;
  rows: (window: PageWindow) => PromiseLike<(Row & RowKey)[]>;
  count: () => Promise<Total>;
  exactTotal?: () => Promise<number | undefined>;
  /**
   * For a page deep in the list (OFFSET ≥ SEEK_FROM, no cursor): where its rows start, read
   * from a maintained aggregate; undefined when the aggregate cannot answer the filter or sort.
   */
  seek?: (offset: number, direction: 'asc' | 'desc') => Promise<Seek | undefined>;
  toItem: (row: Row) => Item | Promise<Item>;
}): Promise<Page<Item>> {
  const { query, keyset: k } = opts;
  const cursor = query.after ? decodeCursor(k, query.after) : undefined;
  const offset = cursor ? 0 : (query.page - 1) * query.page_size;
  const nullable = k.nullable ?? false;
  const window: PageWindow = {
    limit: query.page_size + 1,
    offset,
    after: cursor ? afterCursor(k, cursor) : undefined,
    cursor,
    orderBy: orderBy(k.column, k.order, k.id, { nullable }),
    direction: k.order,
    sortKey: sortKeyOf(k),
  };
  // A deep page number skips the rows before it by the list's seek, when it has one.
  const seeking = async (w: PageWindow): Promise<PageWindow> => {
    if (!opts.seek || w.after || w.offset < SEEK_FROM) return w;
    const s = await opts.seek(w.offset, w.direction);
    if (!s || s.skipped <= 0 || s.skipped > w.offset) return w;
    return { ...w, after: s.where, cursor: undefined, offset: w.offset - s.skipped };
  };
  // An exact total known up front (a maintained aggregate) lets a page number in the second
  // half of the list be read from its far end: the last page of 1M leads is then an OFFSET of
  // ~0 in the reverse order instead of ~1M (NOT NULL sorts only: NULLs stay last both ways).
  const askedFirst = !cursor && !nullable && opts.exactTotal !== undefined;
  const known = askedFirst ? await opts.exactTotal?.() : undefined;
  if (known !== undefined && offset > 0 && offset * 2 > known) {
    const onPage = Math.max(0, Math.min(query.page_size, known - offset));
    const reversed = onPage
      ? await opts.rows(
          await seeking({
            ...window,
            limit: onPage,
            offset: known - offset - onPage,
            orderBy: orderBy(k.column, k.order === 'asc' ? 'desc' : 'asc', k.id),
            direction: k.order === 'asc' ? 'desc' : 'asc',
          }),
        )
      : [];
    const pageRows = reversed.reverse();
    const last = pageRows.at(-1);
    return {
      items: await Promise.all(pageRows.map(opts.toItem)),
      total: known,
      total_exact: true,
      page: query.page,
      page_size: query.page_size,
      next_cursor: last && offset + pageRows.length < known ? encodeCursor(k, last) : null,
    };
  }
  const total = async (): Promise<Total> => {
    if (known !== undefined) return { total: known, exact: true };
    const exact = !askedFirst && opts.exactTotal ? await opts.exactTotal() : undefined;
    return exact === undefined ? opts.count() : { total: exact, exact: true };
  };
  const [rows, counted] = await Promise.all([seeking(window).then(opts.rows), total()]);
  const more = rows.length > query.page_size;
  const pageRows = more ? rows.slice(0, query.page_size) : rows;
  const last = pageRows.at(-1);
  return {
    items: await Promise.all(pageRows.map(opts.toItem)),
    total: counted.total,
    total_exact: counted.exact,
    page: query.page,
    page_size: query.page_size,
    next_cursor: more && last ? encodeCursor(k, last) : null,
  };
}
