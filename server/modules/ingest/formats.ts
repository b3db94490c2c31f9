import type { FieldRule } from '../../../contract/ingest-mapping.ts';

/**
 * The value formats a tracker writes durations, money and times in (issue 26), read exactly:
 * money to cents without a float, a time without an offset in the integration's zone. Pure;
 * the mapping engine (mapping.ts) reads every postback's values through these.
 */

const MAX_CENTS = 999_999_999_999n;

/** Seconds from `95`, `95.4`, `1:35`, `0:01:35`; minutes and milliseconds when told. */
export function parseDuration(v: string, format: FieldRule['format']): number | null {
  const clock = /^(\d{1,3}):([0-5]\d)(?::([0-5]\d))?$/.exec(v);
  if (clock && format !== 'minutes' && format !== 'milliseconds') {
    const [, a, b, c] = clock;
    return c === undefined
      ? Number(a) * 60 + Number(b)
      : Number(a) * 3600 + Number(b) * 60 + Number(c);
  }
  if (format === 'clock' || !/^\d+(\.\d+)?$/.test(v)) return null;
  const n = Number(v);
  if (format === 'minutes') return Math.round(n * 60);
  if (format === 'milliseconds') return Math.round(n / 1000);
  return Math.round(n);
}

/** Exact cents from `12.5`, `$1,234.56`, `USD 3`; or from an integer of cents. */
export function parseMoney(v: string, format: FieldRule['format']): string | null {
  const s = v
    .replace(/^(usd|\$)\s*/i, '')
    .replace(/\s*(usd)$/i, '')
    .replace(/[,\s]/g, '')
    .replace(/^\$/, '');
  let cents: bigint;
  if (format === 'cents') {
    if (!/^\d{1,15}$/.test(s)) return null;
    cents = BigInt(s);
  } else {
    const m = /^(\d{1,13})(?:\.(\d+))?$/.exec(s) ?? /^()\.(\d+)$/.exec(s);
    if (!m) return null;
    const whole = BigInt(m[1] || '0');
    const frac = (m[2] ?? '').padEnd(3, '0');
    // Half up at the third decimal: 1.005 → 1.01, exactly, with no float in between.
    cents = whole * 100n + BigInt(frac.slice(0, 2)) + (Number(frac[2]) >= 5 ? 1n : 0n);
  }
  if (cents > MAX_CENTS) return null;
  const str = cents.toString().padStart(3, '0');
  return `${str.slice(0, -2)}.${str.slice(-2)}`;
}

/** The offset of `zone` at the instant `utcMs`, in minutes east of UTC. */
function zoneOffsetMinutes(zone: string, utcMs: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(utcMs));
  const n = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const asUtc = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return Math.round((asUtc - Math.floor(utcMs / 1000) * 1000) / 60_000);
}

/** Year, month (1-12), day, hour, minute, second, millisecond of a wall-clock time. */
type WallFields = [number, number, number, number, number, number, number];

/** The wall-clock fields read as if they were UTC (an offset or a zone then moves them). */
function wallAsUtc(fields: number[]): number {
  const [y, mo, d, h, mi, s, ms] = fields as WallFields;
  return Date.UTC(y, mo - 1, d, h, mi, s, ms);
}

/** Month 1-12, day 1-31, hour 0-23: a time that can be read. */
const inRange = ([, mo, d, h]: number[]) =>
  mo! >= 1 && mo! <= 12 && d! >= 1 && d! <= 31 && h! <= 23;

/** A wall-clock time in `zone` as an instant (the later one in a repeated hour). */
function fromZone(fields: number[], zone: string): Date {
  const wall = wallAsUtc(fields);
  let guess = wall - zoneOffsetMinutes(zone, wall) * 60_000;
  guess = wall - zoneOffsetMinutes(zone, guess) * 60_000;
  return new Date(guess);
}

const isoLike =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?$/i;
const usStyle = /^(\d{1,2})\/(\d{1,2})\/(\d{4})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?$/;
const rfc2822 =
  /^(?:[A-Za-z]{3},\s*)?\d{1,2}\s+[A-Za-z]{3}\s+\d{4}\s+\d{2}:\d{2}(?::\d{2})?\s*(?:[+-]\d{4}|GMT|UTC|Z)$/;

/**
 * ISO with or without an offset, `2023-12-11 11:49:32 -0500`, RFC 2822 (`Mon, 16 Aug 2010
 * 03:45:01 +0000`), US style (`04/13/2026 11:08:40 AM`), Unix seconds or milliseconds; a time
 * without an offset is read in `zone`.
 */
export function parseTimestamp(
  v: string,
  format: FieldRule['format'],
  zone: string | null,
): Date | null {
  if (/^\d{9,13}(\.\d+)?$/.test(v) || format === 'unix_s' || format === 'unix_ms') {
    if (!/^\d+(\.\d+)?$/.test(v)) return null;
    const n = Number(v);
    const ms =
      format === 'unix_ms' || (format !== 'unix_s' && v.split('.')[0]!.length >= 12) ? n : n * 1000;
    return new Date(Math.round(ms));
  }
  const m = isoLike.exec(v);
  if (m) {
    const [, y, mo, d, h, mi, s, frac, off] = m;
    const fields = [y, mo, d, h, mi, s ?? '0'].map(Number);
    fields.push(Number((frac ?? '0').padEnd(3, '0').slice(0, 3)));
    if (!inRange(fields)) return null;
    if (!off) return fromZone(fields, zone ?? 'UTC');
    const wall = wallAsUtc(fields);
    if (/^(z|utc|gmt)$/i.test(off)) return new Date(wall);
    const sign = off.startsWith('-') ? -1 : 1;
    const digits = off.slice(1).replace(':', '');
    const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
    return new Date(wall - sign * minutes * 60_000);
  }
  // US style, as call logs and some webhooks write it: 04/13/2026 11:08:40 AM (no offset).
  const us = usStyle.exec(v);
  if (us) {
    const [, mo, d, y, h, mi, s, ampm] = us;
    let hour = Number(h);
    if (ampm) {
      if (hour < 1 || hour > 12) return null;
      hour = (hour % 12) + (/p/i.test(ampm) ? 12 : 0);
    }
    const fields = [Number(y), Number(mo), Number(d), hour, Number(mi), Number(s ?? '0'), 0];
    if (!inRange(fields)) return null;
    return fromZone(fields, zone ?? 'UTC');
  }
  if (rfc2822.test(v)) {
    const t = Date.parse(v);
    return Number.isNaN(t) ? null : new Date(t);
  }
  return null;
}
