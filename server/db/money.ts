/**
 * Money columns are numeric(12,2): Drizzle reads and writes them as strings, the API answers JSON
 * numbers. These are the only two conversions.
 */

/** A money value (numeric string, or a sum of them) as a JSON number rounded to cents; none is 0. */
export const toMoney = (v: string | number | null | undefined): number =>
  v === null || v === undefined ? 0 : Math.round(Number(v) * 100) / 100;

/** Money for a numeric(12,2) column: two decimals, as the string the driver expects. */
export const fromMoney = (v: number): string => v.toFixed(2);

/** `$1,234.50`, for human-readable descriptions (activity feeds). */
export const formatUsd = (v: number): string =>
  `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
