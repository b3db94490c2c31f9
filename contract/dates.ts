/** The calendar range the portal accepts for any date it stores or filters by. */
export const MIN_DATE = '1900-01-01';
export const MAX_DATE = '2999-12-31';

/** The sentence every out-of-range date answers with. */
export const DATE_RANGE_MESSAGE = `Use a date between ${MIN_DATE} and ${MAX_DATE}.`;

/**
 * True when a `YYYY-MM-DD…` string (a day or an ISO date-time) lies in the accepted range.
 * Outside it (year 0, year 10000) the database cannot store or compare the value.
 */
export function isInDateRange(s: string): boolean {
  const day = s.slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && day >= MIN_DATE && day <= MAX_DATE;
}
