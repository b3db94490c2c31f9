import { Readable } from 'node:stream';
import { and, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
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

/**
 * A filtered, sorted list as CSV text, read in batches with a keyset cursor on (sort column,
 * id), the list's own keyset, so memory stays flat however many rows match and each batch is a
 * range scan of the list's (sort, id) index that starts where the last one stopped (nothing is
 * re-sorted per batch). `select` is the list's select and joins (`.$dynamic()`), with the sort
 * column as text selected as `sortKey`; each batch ANDs the rows after the previous batch's last
 * one to `where`. Yields the header line, then one chunk of lines per batch.
 */
export async function* keysetCsv<
  T extends PgSelect & PromiseLike<{ id: string; sortKey: string | null }[]>,
>(opts: {
  header: string[];
  keyset: Keyset;
  select: (sortKey: SQL<string | null>) => T;
  where: SQL | undefined;
  line: (row: Awaited<T>[number]) => CsvCell[];
}): AsyncGenerator<string> {
  const k = opts.keyset;
  yield csvLine(opts.header);
  const order = orderBy(k.column, k.order, k.id, { nullable: k.nullable ?? false });
  let after: SQL | undefined;
  for (;;) {
    const rows: Awaited<T> = await opts
      .select(sortKeyOf(k))
      .where(and(opts.where, after))
      .orderBy(...order)
      .limit(CSV_BATCH);
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
