import {
  IMPORT_MAX_ROWS,
  type ImportField,
  type ImportMapping,
  importFieldLabels,
  importFields,
  requiredImportFields,
} from '../../../contract/lead-actions.ts';
import { isInDateRange } from '../../../contract/list.ts';
import type { LeadStatus } from '../../../contract/roles.ts';
import { AppError } from '../../errors.ts';

/**
 * Pure rules of the CSV import (issue 13): the file's encoding, its CSV syntax, the mapping and
 * each row's values. The service resolves publishers and offers and writes the rows.
 */

import { decodeCsvFile, detectDelimiter, parseCsv } from '../../storage/csv-reader.ts';

export { decodeCsvFile, detectDelimiter, parseCsv };

/** The header and data rows of a decoded file; a file without data is a 400. */
export function readCsv(text: string): { header: string[]; rows: string[][] } {
  const rows = parseCsv(text, detectDelimiter(text));
  const header = (rows.shift() ?? []).map((h) => h.trim());
  if (header.length === 0 || header.every((h) => h === '')) {
    throw new AppError('validation_failed', 'The file has no header row (the column names).');
  }
  const seen = new Set<string>();
  for (const h of header) {
    if (h && seen.has(h)) {
      throw new AppError(
        'validation_failed',
        `The column "${h}" appears twice in the header; give each column its own name.`,
      );
    }
    seen.add(h);
  }
  const data = rows.filter((r) => r.length > 0).length;
  if (data === 0) throw new AppError('validation_failed', 'The file has a header but no rows.');
  if (data > IMPORT_MAX_ROWS) {
    throw new AppError(
      'payload_too_large',
      `The file has ${data.toLocaleString('en-US')} rows; one import takes at most ${IMPORT_MAX_ROWS.toLocaleString('en-US')}. Split it and import the parts one after another.`,
    );
  }
  return { header, rows };
}

/** Each mapped field's column index; a required field without a column is a 400. */
export function columnsOf(
  header: readonly string[],
  mapping: ImportMapping,
): Partial<Record<ImportField, number>> {
  const out: Partial<Record<ImportField, number>> = {};
  const details: Record<string, string[]> = {};
  for (const field of importFields) {
    const column = mapping[field];
    if (!column) {
      if (requiredImportFields.includes(field)) {
        details[field] = [
          `Choose the column that holds the ${importFieldLabels[field].toLowerCase()}.`,
        ];
      }
      continue;
    }
    const index = header.indexOf(column);
    if (index < 0) {
      details[field] = [`The file has no column "${column}".`];
      continue;
    }
    out[field] = index;
  }
  const missing = Object.keys(details);
  if (missing.length) {
    const first = details[missing[0]!]![0]!;
    throw new AppError(
      'validation_failed',
      missing.length === 1
        ? first
        : `${first} ${missing.length - 1} more column${missing.length > 2 ? 's are' : ' is'} missing.`,
      { details },
    );
  }
  return out;
}

/** One row read into lead values (money as numeric strings, time as text for the database). */
export type ImportRow = {
  line: number;
  callId: string;
  publisher: string;
  offer: string;
  /** ISO instant, or a local date-time read in the network's time zone by the database. */
  timestamp: string;
  seconds: number | null;
  payout: string | null;
  revenue: string | null;
  status: LeadStatus | null;
  caller: string | null;
  trackingNumber: string | null;
  state: string | null;
  zip: string | null;
  recordingUrl: string | null;
};

export type RowError = { line: number; column: string | null; message: string };

const MAX_MONEY = 9_999_999_999.99;
const MAX_SECONDS = 24 * 3600;
const phone = /^\+?[0-9 ().-]{3,40}$/;

function money(s: string): string | null {
  const v = s.replace(/^\$/, '').replace(/,/g, '');
  if (!/^\d{1,10}(\.\d+)?$/.test(v)) return null;
  const n = Math.round(Number(v) * 100) / 100;
  return n <= MAX_MONEY ? n.toFixed(2) : null;
}

function seconds(s: string): number | null {
  let n: number;
  if (/^\d{1,6}$/.test(s)) n = Number(s);
  else if (/^\d{1,4}:\d{2}(:\d{2})?$/.test(s)) {
    const parts = s.split(':').map(Number);
    n = parts.reduce((acc, p) => acc * 60 + p, 0);
  } else if (/^\d{1,6}\.\d+$/.test(s)) n = Math.round(Number(s));
  else return null;
  return n <= MAX_SECONDS ? n : null;
}

const pad = (v: string | number) => String(v).padStart(2, '0');

/**
 * A date-time as trackers and spreadsheets write it: ISO with an offset (an instant), ISO or
 * `YYYY-MM-DD HH:MM[:SS]` without one, `MM/DD/YYYY[ HH:MM[:SS][ AM|PM]]` (local times, read in
 * the network's time zone), or Unix seconds/milliseconds. Null when it is none of them.
 */
export function readTimestamp(s: string): string | null {
  if (/^\d{9,13}$/.test(s)) {
    const d = new Date(s.length >= 12 ? Number(s) : Number(s) * 1000);
    return d.toISOString();
  }
  let m =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(
      s,
    );
  if (m) {
    const [, y, mo, d, h = '0', mi = '00', sec = '00', frac = '', zone] = m;
    const local = `${y}-${mo}-${d}T${pad(h)}:${mi}:${sec}${frac}`;
    if (!realDateTime(+y!, +mo!, +d!, +h, +mi, +sec)) return null;
    if (!zone) return local;
    const t = new Date(
      `${local}${zone.toUpperCase() === 'Z' ? 'Z' : zone.length === 3 ? `${zone}:00` : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`}`,
    );
    return Number.isNaN(t.getTime()) ? null : t.toISOString();
  }
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?\s*(AM|PM)?)?$/i.exec(s);
  if (m) {
    const [, mo, d, y, hRaw = '0', mi = '00', sec = '00', ampm] = m;
    let h = Number(hRaw);
    if (ampm) {
      if (h < 1 || h > 12) return null;
      h = (h % 12) + (ampm.toUpperCase() === 'PM' ? 12 : 0);
    }
    if (!realDateTime(+y!, +mo!, +d!, h, +mi, +sec)) return null;
    return `${y}-${pad(mo!)}-${pad(d!)}T${pad(h)}:${mi}:${pad(sec)}`;
  }
  return null;
}

function realDateTime(y: number, mo: number, d: number, h: number, mi: number, s: number) {
  const t = new Date(Date.UTC(y, mo - 1, d));
  return (
    t.getUTCFullYear() === y &&
    t.getUTCMonth() === mo - 1 &&
    t.getUTCDate() === d &&
    h < 24 &&
    mi < 60 &&
    s < 60 &&
    isInDateRange(`${String(y).padStart(4, '0')}-${pad(mo)}-${pad(d)}`)
  );
}

const statusWords: Record<string, LeadStatus> = {
  approved: 'approved',
  pending: 'pending',
  rejected: 'rejected',
};

/**
 * A data row into lead values and everything wrong with it (each error names its column as the
 * file names it; the row is good only without errors). `line` is the row's line in the file
 * (the header is line 1). Publisher and offer are read here as text; the service resolves them.
 */
export function readImportRow(
  values: readonly string[],
  line: number,
  cols: Partial<Record<ImportField, number>>,
  header: readonly string[],
): { row: ImportRow; errors: RowError[] } {
  const get = (f: ImportField): string | undefined => {
    const i = cols[f];
    if (i === undefined) return undefined;
    const v = values[i]?.trim();
    return v ? v : undefined;
  };
  const errors: RowError[] = [];
  const err = (f: ImportField, message: string) => {
    errors.push({ line, column: columnName(header, cols, f), message });
  };
  const callId = get('external_call_id') ?? '';
  if (!callId) err('external_call_id', 'The external call id is empty.');
  else if (callId.length > 200)
    err('external_call_id', 'The external call id is longer than 200 characters.');
  const publisher = get('publisher') ?? '';
  if (!publisher) err('publisher', 'The publisher is empty.');
  const offer = get('offer') ?? '';
  if (!offer) err('offer', 'The offer is empty.');
  const tsText = get('timestamp');
  const timestamp = tsText ? readTimestamp(tsText) : null;
  if (!tsText) err('timestamp', 'The date is empty.');
  else if (!timestamp) {
    err(
      'timestamp',
      `"${tsText.slice(0, 40)}" is not a date and time (use 2026-11-20 14:05:00, 11/20/2026 2:05 PM or an ISO time).`,
    );
  }
  const row: ImportRow = {
    line,
    callId,
    publisher,
    offer,
    timestamp: timestamp ?? '',
    seconds: null,
    payout: null,
    revenue: null,
    status: null,
    caller: null,
    trackingNumber: null,
    state: null,
    zip: null,
    recordingUrl: null,
  };
  const dur = get('duration_seconds');
  if (dur !== undefined) {
    row.seconds = seconds(dur);
    if (row.seconds === null) {
      err(
        'duration_seconds',
        `"${dur.slice(0, 20)}" is not a duration in seconds (0 to 86400, or m:ss).`,
      );
    }
  }
  for (const f of ['payout', 'revenue'] as const) {
    const v = get(f);
    if (v === undefined) continue;
    row[f] = money(v);
    if (row[f] === null) err(f, `"${v.slice(0, 20)}" is not an amount of money (e.g. 25.50).`);
  }
  const status = get('status');
  if (status !== undefined) {
    row.status = statusWords[status.toLowerCase()] ?? null;
    if (!row.status)
      err('status', `"${status.slice(0, 20)}" is not a status: use approved, pending or rejected.`);
  }
  for (const [f, key] of [
    ['caller', 'caller'],
    ['tracking_number', 'trackingNumber'],
  ] as const) {
    const v = get(f);
    if (v === undefined) continue;
    if (phone.test(v)) row[key] = v;
    else err(f, `"${v.slice(0, 40)}" is not a phone number.`);
  }
  const state = get('state');
  if (state !== undefined) {
    if (state.length > 50) err('state', 'The state is longer than 50 characters.');
    else row.state = state.toUpperCase();
  }
  const zip = get('zip');
  if (zip !== undefined) {
    if (zip.length > 20) err('zip', 'The ZIP is longer than 20 characters.');
    else row.zip = zip;
  }
  const url = get('recording_url');
  if (url !== undefined) {
    if (url.length > 2000 || !/^https?:\/\/[^\s]+$/i.test(url)) {
      err('recording_url', 'The recording URL must be an http(s) address.');
    } else row.recordingUrl = url;
  }
  return { row, errors };
}

/** The file's name of the column a field is read from (for an error), null when unmapped. */
export function columnName(
  header: readonly string[],
  cols: Partial<Record<ImportField, number>>,
  field: ImportField,
): string | null {
  const i = cols[field];
  return i === undefined ? null : (header[i] ?? null);
}
