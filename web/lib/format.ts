import { dateFormat } from '../../contract/date-formats.ts';
import { displayCurrencyCode, displayTimeZone } from './display-settings.ts';

export {
  displayCurrencyCode,
  displayTimeZone,
  setDisplayCurrency,
  setDisplayTimeZone,
} from './display-settings.ts';

const moneyFormats = new Map<string, Intl.NumberFormat>();
function moneyFormat(): Intl.NumberFormat {
  const currency = displayCurrencyCode();
  let f = moneyFormats.get(currency);
  if (!f) {
    f = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    moneyFormats.set(currency, f);
  }
  return f;
}

/** `$1,234.00` (or `€1,234.00`: the network's currency); null or undefined shows '—'. */
export function formatMoney(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  return moneyFormat().format(Number(value));
}

const count = new Intl.NumberFormat('en-US');

/**
 * A count with thousands separators (`10,000`); `exact: false` (a list's capped total) adds a
 * plus: `10,000+`.
 */
export function formatCount(n: number, exact = true): string {
  return `${count.format(n)}${exact ? '' : '+'}`;
}

/** `12 min`. */
export function formatDuration(minutes: number | null | undefined): string {
  return `${minutes ?? 0} min`;
}

// ---------------------------------------------------------------------------
// Dates: one format across the app, in the network's time zone (settings.timezone)
// ---------------------------------------------------------------------------

function formatter(withTime: boolean, zone = displayTimeZone()): Intl.DateTimeFormat {
  return dateFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    ...(withTime && { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
  });
}

function parts(value: string | Date, withTime: boolean, zone?: string) {
  const p = formatter(withTime, zone).formatToParts(new Date(value));
  const get = (t: string) => p.find((x) => x.type === t)?.value ?? '';
  const day = `${get('year')}-${get('month')}-${get('day')}`;
  return withTime ? `${day} ${get('hour')}:${get('minute')}` : day;
}

/**
 * The day of an instant in the network's time zone: `2026-11-25`. The one date format of the
 * app (ISO order: the same on every screen, in every CSV, and sortable).
 */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '—';
  return parts(value, false);
}

/**
 * A calendar day (`YYYY-MM-DD`: a campaign's start, a report's day) as the app writes every day:
 * as is, never shifted by a time zone; '—' when there is none.
 */
export function formatDay(day: string | null | undefined): string {
  return day || '—';
}

/** How every day is written and typed in the app (forms, lists, CSVs): ISO order. */
export const DAY_FORMAT = 'YYYY-MM-DD';

/**
 * A day typed into a date field as `YYYY-MM-DD` (the app's format), or as `M/D/YYYY` (what US
 * keyboards habitually type), read as the `YYYY-MM-DD` day it names; null when it names no real
 * day. The field then shows it back in the one format.
 */
export function parseTypedDay(text: string): string | null {
  const t = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  const [y, m, d] = iso
    ? [iso[1], iso[2], iso[3]]
    : us
      ? [us[3], us[1], us[2]]
      : [undefined, undefined, undefined];
  if (!y || !m || !d) return null;
  const day = `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
  const at = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().startsWith(day) ? day : null;
}

/** The props every single-day field (Mantine's DateInput) takes: shown and typed as YYYY-MM-DD. */
export const dayInputProps = {
  valueFormat: DAY_FORMAT,
  placeholder: DAY_FORMAT,
  dateParser: parseTypedDay,
} as const;

const shortDayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/**
 * A calendar day (`YYYY-MM-DD`, a day of the network's zone as the server sends it) as a chart's
 * axis writes it: `Nov 25`. The day is read as it is, never shifted by the browser's zone.
 */
export function formatShortDay(day: string): string {
  return shortDayFormat.format(new Date(`${day}T00:00:00Z`));
}

/** An instant in the network's time zone, to the minute: `2026-11-25 14:05` (never seconds). */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '—';
  return parts(value, true);
}

/** The day `YYYY-MM-DD` of an instant (default now) in zone `zone` (default the network's). */
export function dayInZone(at: Date = new Date(), zone: string = displayTimeZone()): string {
  return parts(at, false, zone);
}

/** Seconds as `m:ss` (`4:05`), or `h:mm:ss` from an hour; null shows '—'. */
export function formatSeconds(total: number | null | undefined): string {
  if (total === null || total === undefined) return '—';
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** A percentage with one decimal: `42.5%`; null shows '—'. */
export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return `${value.toFixed(1)}%`;
}
