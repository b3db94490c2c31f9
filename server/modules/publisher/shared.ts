/** Money from numeric(12,2) (a string) as a JSON number. */
export const toMoney = (v: string | number | null | undefined): number =>
  v === null || v === undefined ? 0 : Math.round(Number(v) * 100) / 100;

/** `$1,234.50`, for activity descriptions. */
export const formatUsd = (v: number): string =>
  `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Postgres unique-violation (23505), whether or not the driver error is wrapped. */
export function isUniqueViolation(err: unknown): boolean {
  let e: unknown = err;
  for (let i = 0; i < 3 && e && typeof e === 'object'; i++) {
    if ((e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
