import { type DocumentStatus, REMINDER_DAYS } from '../../../contract/documents.ts';

/** Pure rules of a document's life: its status, whether it may be signed, which reminder is due. */

const DAY_MS = 24 * 3600 * 1000;

export type DocState = {
  status: 'sent' | 'viewed' | 'signed' | 'superseded';
  expiresAt: Date | null;
};

/** The status the API shows: a signed document past its expiry is `expired`. */
export function statusOf(d: DocState, now: Date): DocumentStatus {
  if (d.status === 'signed' && d.expiresAt && d.expiresAt <= now) return 'expired';
  return d.status;
}

/**
 * Whether the publisher may sign now: an unsigned current version, or a signed one that has
 * expired or is within the first reminder's window of its expiry (signing again renews it).
 */
export function canSign(d: DocState, now: Date): boolean {
  if (d.status === 'superseded') return false;
  if (d.status !== 'signed') return true;
  if (!d.expiresAt) return false;
  return d.expiresAt.getTime() - now.getTime() <= REMINDER_DAYS[0] * DAY_MS;
}

/**
 * The expiry reminder due now (30, 7 or 1 days before), or null: the smallest window the
 * expiry has entered that was not reminded yet. A reminder missed (the server was down) is
 * not sent late once a later one is due: only the latest window's counts.
 */
export function dueReminder(
  d: DocState & { remindedDays: readonly number[] },
  now: Date,
): number | null {
  if (d.status !== 'signed' || !d.expiresAt) return null;
  const left = d.expiresAt.getTime() - now.getTime();
  if (left <= 0) return null;
  const windows = REMINDER_DAYS.filter((days) => left <= days * DAY_MS);
  const latest = windows[windows.length - 1];
  if (latest === undefined || d.remindedDays.includes(latest)) return null;
  return latest;
}

/** `from` plus whole calendar months (the 31st of a shorter month is its last day). */
export function addMonths(from: Date, months: number): Date {
  const d = new Date(from);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}
