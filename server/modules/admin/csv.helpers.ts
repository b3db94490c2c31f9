/** Characters that make a spreadsheet treat a cell as a formula (or a DDE command). */
const formulaStart = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break; text that a
 * spreadsheet would run as a formula gets a leading apostrophe so it stays text.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (typeof value === 'string' && formulaStart.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** One CSV line with its CRLF ending. */
export function csvLine(cells: (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** A download name like `leads-2024-05-31.csv`. */
export function csvFileName(what: string, now = new Date()): string {
  return `${what}-${now.toISOString().slice(0, 10)}.csv`;
}
