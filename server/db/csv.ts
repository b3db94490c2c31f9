import { Readable } from 'node:stream';
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyReply } from 'fastify';
import { orderBy } from './list-query.ts';

/** Rows per database round trip while streaming a CSV. */
export const CSV_BATCH = 1000;

export type CsvCell = string | number | null | undefined;

/** Characters that make a spreadsheet treat a cell as a formula (or a DDE command). */
const formulaStart = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break; text that a
 * spreadsheet would run as a formula gets a leading apostrophe so it stays text.
 */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (typeof value === 'string' && formulaStart.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** One CSV line with its CRLF ending. */
export function csvLine(cells: CsvCell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** A download name like `leads-2024-05-31.csv`. */
export function csvFileName(what: string, now = new Date()): string {
  return `${what}-${now.toISOString().slice(0, 10)}.csv`;
}

/** What one batch of a keyset CSV reads: the caller's query with these pieces plugged in. */
export type CsvBatch = {
  /** Select it as `sortKey`: the sort column as text (timestamps keep their microseconds). */
  sortKey: SQL<string>;
  /** AND it to the filter: the rows after the last one of the previous batch (none at first). */
  after: SQL | undefined;
  orderBy: SQL[];
  limit: number;
};

/**
 * A filtered, sorted list as CSV text, read in batches with a keyset cursor on (sort column,
 * id) so memory stays flat however many rows match. Yields the header line, then one chunk of
 * lines per batch.
 */
export async function* keysetCsv<Row extends { id: string; sortKey: string }>(opts: {
  header: string[];
  sort: PgColumn;
  id: PgColumn;
  order: 'asc' | 'desc';
  read: (batch: CsvBatch) => PromiseLike<Row[]>;
  line: (row: Row) => CsvCell[];
}): AsyncGenerator<string> {
  const { sort, id, order } = opts;
  yield csvLine(opts.header);
  const sortKey = sql<string>`(${sort})::text`;
  const cast = sql.raw(sort.getSQLType());
  const op = order === 'asc' ? sql`>` : sql`<`;
  let last: { key: string; id: string } | undefined;
  for (;;) {
    const after = last
      ? sql`(${sort}, ${id}) ${op} (${last.key}::${cast}, ${last.id}::uuid)`
      : undefined;
    const rows = await opts.read({
      sortKey,
      after,
      orderBy: orderBy(sort, order, id),
      limit: CSV_BATCH,
    });
    if (rows.length === 0) return;
    yield rows.map((r) => csvLine(opts.line(r))).join('');
    if (rows.length < CSV_BATCH) return;
    const tail = rows[rows.length - 1]!;
    last = { key: tail.sortKey, id: tail.id };
  }
}

/** Answers a CSV download named `<what>-<today>.csv`, streamed as the lines are made. */
export function sendCsv(reply: FastifyReply, what: string, lines: AsyncIterable<string>) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${csvFileName(what)}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(lines));
}
