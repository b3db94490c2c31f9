import { Readable } from 'node:stream';
import type { SQL } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { afterCursor, type Keyset, orderBy, sortKeyOf } from './list-query.ts';

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
  sortKey: SQL<string | null>;
  /** AND it to the filter: the rows after the last one of the previous batch (none at first). */
  after: SQL | undefined;
  orderBy: SQL[];
  limit: number;
};

/**
 * A filtered, sorted list as CSV text, read in batches with a keyset cursor on (sort column,
 * id), the list's own keyset, so memory stays flat however many rows match and each batch is a
 * range scan of the list's (sort, id) index that starts where the last one stopped (nothing is
 * re-sorted per batch). Yields the header line, then one chunk of lines per batch.
 */
export async function* keysetCsv<Row extends { id: string; sortKey: string | null }>(opts: {
  header: string[];
  keyset: Keyset;
  read: (batch: CsvBatch) => PromiseLike<Row[]>;
  line: (row: Row) => CsvCell[];
}): AsyncGenerator<string> {
  const k = opts.keyset;
  yield csvLine(opts.header);
  const order = orderBy(k.column, k.order, k.id, { nullable: k.nullable ?? false });
  let after: SQL | undefined;
  for (;;) {
    const rows = await opts.read({
      sortKey: sortKeyOf(k),
      after,
      orderBy: order,
      limit: CSV_BATCH,
    });
    if (rows.length === 0) return;
    yield rows.map((r) => csvLine(opts.line(r))).join('');
    if (rows.length < CSV_BATCH) return;
    const tail = rows[rows.length - 1]!;
    after = afterCursor(k, { value: tail.sortKey, id: tail.id });
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
