/**
 * Money, in one place (issue 28): integer cents (bigint) on the server, numeric(12,2) texts in the
 * database, JSON numbers with at most two decimals at the API. These are the only conversions;
 * sums are made in cents, never in floats.
 */

const MONEY_TEXT = /^(-?)(\d*)(?:\.(\d*))?$/;

/**
 * Exact cents of a numeric text (`'12.05'`, `'-3'`, a sum with more decimals rounded half away
 * from zero) or of a JSON amount, as a bigint; none is 0.
 */
export const cents = (v: string | number | null | undefined): bigint => {
  if (v === null || v === undefined) return 0n;
  if (typeof v === 'number') return amountCents(v);
  const s = v.trim();
  const m = MONEY_TEXT.exec(s);
  if (!m) throw new Error(`not a money value: ${s}`);
  const digits = `${m[3] ?? ''}000`;
  let c = BigInt(m[2] || '0') * 100n + BigInt(digits.slice(0, 2));
  if (Number(digits[2]) >= 5) c += 1n;
  return m[1] ? -c : c;
};

/** Cents of a JSON amount (the API's input, at most two decimals by the contract). */
export const amountCents = (v: number): bigint => BigInt(Math.round(v * 100));

/** Cents back to the numeric text the driver takes (`-12.05`). */
export const centsText = (c: bigint): string => {
  const neg = c < 0n;
  const a = neg ? -c : c;
  return `${neg ? '-' : ''}${a / 100n}.${(a % 100n).toString().padStart(2, '0')}`;
};

/** Cents as the API's JSON number (two decimals at most). */
export const centsMoney = (c: bigint): number => Number(centsText(c));

const MAX_EXACT_CENTS = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Whole cents as a plain number, for sums kept in typed arrays (the reports' kept blocks): every
 * sum of them stays whole and exact below 2^53 cents; beyond that it throws rather than round.
 */
export const centsNumber = (c: bigint): number => {
  if (c > MAX_EXACT_CENTS || c < -MAX_EXACT_CENTS) throw new Error(`cents beyond exact: ${c}`);
  return Number(c);
};

/** Whole cents kept as a number (centsNumber) back to bigint; a fraction throws (RangeError). */
export const numberCents = (n: number): bigint => BigInt(n);

/** A money value from the database (numeric text, or a sum of them) as a JSON number; none is 0. */
export const toMoney = (v: string | number | null | undefined): number => centsMoney(cents(v));

/** A JSON amount for a numeric(12,2) column: two decimals, as the string the driver expects. */
export const fromMoney = (v: number): string => centsText(amountCents(v));

/** `$1,234.50`, for human-readable descriptions (activity feeds). */
export const formatUsd = (v: number): string =>
  `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
