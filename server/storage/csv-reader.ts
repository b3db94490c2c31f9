import { IMPORT_MAX_BYTES } from '../../contract/lead-actions.ts';
import { AppError } from '../errors.ts';

/**
 * Reading an uploaded CSV file (the lead import, tracking numbers): its encoding (UTF-8 only,
 * said clearly otherwise), its delimiter and its syntax (quotes, doubled quotes, line breaks in
 * quotes).
 */

const MB = 1024 * 1024;

/** The file as text: UTF-8 (a BOM is dropped); anything else is a 415 saying what to do. */
export function decodeCsvFile(buf: Buffer, filename: string): string {
  if (buf.length > IMPORT_MAX_BYTES) {
    throw new AppError(
      'payload_too_large',
      `The file is larger than ${IMPORT_MAX_BYTES / MB} MB. Split it into smaller files and import them one after another.`,
    );
  }
  if (buf.length === 0) throw new AppError('validation_failed', 'The file is empty.');
  if (
    (buf[0] === 0xff && buf[1] === 0xfe) ||
    (buf[0] === 0xfe && buf[1] === 0xff) ||
    buf.subarray(0, 200).includes(0)
  ) {
    throw new AppError(
      'unsupported_encoding',
      `${filename} is not UTF-8 text (it looks like UTF-16 or a binary file). Save it as "CSV UTF-8" and upload it again.`,
      { status: 415 },
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    throw new AppError(
      'unsupported_encoding',
      `${filename} is not UTF-8 text (for example an Excel "CSV" in Windows-1252). Save it as "CSV UTF-8" and upload it again.`,
      { status: 415 },
    );
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The delimiter of the header line: comma, semicolon or tab, whichever it has most of. */
export function detectDelimiter(text: string): string {
  const end = text.indexOf('\n');
  const head = end < 0 ? text : text.slice(0, end);
  let best = ',';
  let most = 0;
  for (const d of [',', ';', '\t']) {
    const n = head.split(d).length - 1;
    if (n > most) {
      most = n;
      best = d;
    }
  }
  return best;
}

/**
 * RFC 4180 CSV into rows of strings: quoted values may hold delimiters, quotes ("") and line
 * breaks; CRLF or LF ends a row. A blank line is an empty row (kept, so row numbers stay lines).
 */
export function parseCsv(text: string, delimiter = ','): string[][] {
  const D = delimiter.charCodeAt(0);
  const rows: string[][] = [];
  const n = text.length;
  let row: string[] = [];
  let i = 0;
  for (;;) {
    let value: string;
    if (text.charCodeAt(i) === 34) {
      value = '';
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) {
          throw new AppError(
            'validation_failed',
            `Row ${rows.length + 1} has a quoted value that never ends (a closing " is missing).`,
          );
        }
        value += text.slice(j, q);
        if (text.charCodeAt(q + 1) === 34) {
          value += '"';
          j = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
    } else {
      value = '';
    }
    let k = i;
    while (k < n) {
      const c = text.charCodeAt(k);
      if (c === D || c === 10 || c === 13) break;
      k++;
    }
    if (k > i) value += text.slice(i, k);
    row.push(value);
    i = k;
    if (i >= n) {
      if (row.length > 1 || row[0] !== '') rows.push(row);
      break;
    }
    const c = text.charCodeAt(i);
    if (c === D) {
      i++;
      continue;
    }
    i += c === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
    rows.push(row.length === 1 && row[0] === '' ? [] : row);
    row = [];
    if (i >= n) break;
  }
  return rows;
}
