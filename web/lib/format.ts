const money = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** `$1,234.00`; null or undefined shows '—'. */
export function formatMoney(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  return money.format(Number(value));
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

/** A date in the user's locale. */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '—';
  return new Date(value).toLocaleDateString();
}

export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '—';
  return new Date(value).toLocaleString();
}
