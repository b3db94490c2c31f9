/**
 * The network's display settings every formatter follows: the time zone dates are shown in and
 * the currency amounts are shown in (Admin → Settings, read with the public settings). Kept
 * apart from the formatters (format.ts) so that setting them at start-up does not put the
 * formatters into the first screen's JavaScript.
 */
let zone = 'UTC';
let currency = 'USD';

/** The zone every date on screen is shown in; set from the public settings once they load. */
export function setDisplayTimeZone(next: string | null | undefined): void {
  if (next) zone = next;
}

export function displayTimeZone(): string {
  return zone;
}

/** The network's currency (settings, default USD); an unknown code keeps the last good one. */
export function setDisplayCurrency(next: string | null | undefined): void {
  if (!next || next === currency) return;
  try {
    new Intl.NumberFormat('en-US', { style: 'currency', currency: next });
    currency = next;
  } catch {
    // not a currency code Intl knows
  }
}

export function displayCurrencyCode(): string {
  return currency;
}
