import { z } from 'zod';
import { optionalText } from './admin-common.ts';

/**
 * The vocabulary every list of every area speaks: paging, sort and order, search, date
 * filters, money and ISO dates. An area's contract builds its list queries from these, so a
 * bad value answers the same sentence everywhere.
 */

// ---------------------------------------------------------------------------
// Paging
// ---------------------------------------------------------------------------

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 200;

/**
 * The most rows a list counts exactly per page view. A list over a big table counts at most
 * `TOTAL_CAP + 1` matching rows (an index-only scan of ~10k entries, a few ms); beyond that it
 * answers `total: TOTAL_CAP, total_exact: false` and the pager shows "of 10,000+". A list whose
 * exact total comes from a maintained aggregate, or a small table, answers it exactly.
 */
export const TOTAL_CAP = 10_000;

/** The sentence a cursor (`after`) that cannot be read, or belongs to another sort, answers. */
export const BAD_CURSOR_MESSAGE =
  'This page link is no longer valid. Go back to the first page of the list and try again.';

/**
 * `page` (1-based), `page_size` (1–200) and `after` of a list query; spread into its z.object.
 * `after` is the opaque `next_cursor` of the previous page: with it the page is read straight
 * from the index after that row (as fast at page 1,000 as at page 1); without it `page` is used.
 */
export const pageQuery = (defaultPageSize: number = DEFAULT_PAGE_SIZE) => ({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(defaultPageSize),
  after: z.string().max(2000, { error: BAD_CURSOR_MESSAGE }).optional(),
});
export type PageQuery = { page: number; page_size: number; after?: string | undefined };

/** The paging fields as a `.omit` mask: a list's CSV export takes its query without them. */
export const pagingFields = { page: true, page_size: true, after: true } as const;

/**
 * Every list answers one shape. `total` is exact when `total_exact` is true; otherwise it is
 * `TOTAL_CAP` and the list holds more. `next_cursor` opens the following page (null on the last).
 */
export type Page<T> = {
  items: T[];
  total: number;
  total_exact: boolean;
  page: number;
  page_size: number;
  next_cursor: string | null;
};

/** The response schema of a list: a page of `item` in the `Page<T>` shape. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    total_exact: z.boolean(),
    page: z.number().int(),
    page_size: z.number().int(),
    next_cursor: z.string().nullable(),
  });

// ---------------------------------------------------------------------------
// Sort, order, search
// ---------------------------------------------------------------------------

/** `order` of a sortable list; every list's default is newest (or largest) first. */
export const SortOrder = z.enum(['asc', 'desc'], { error: 'Order must be asc or desc.' });
export type SortOrder = z.infer<typeof SortOrder>;

/** One of `values`; anything else answers "{what} must be one of: a, b, c." */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, what: string) =>
  z.enum(values, { error: `${what} must be one of: ${values.join(', ')}.` });

/** `sort` of a list: one of its whitelisted columns, with the list's default. */
export const sortParam = <T extends readonly [string, ...string[]]>(values: T, def: T[number]) =>
  z.enum(values, { error: `Sort by one of: ${values.join(', ')}.` }).default(def);

/** `sort` and `order` of a list, spread into its z.object; newest first by default. */
export const sortQuery = <T extends readonly [string, ...string[]]>(
  values: T,
  def: T[number],
  order: SortOrder = 'desc',
) => ({ sort: sortParam(values, def), order: SortOrder.default(order) });

/**
 * A list's query: paging (`defaultPageSize` rows a page when omitted), the list's own filters,
 * then `sort` (one of `sorts`, `def` when omitted) and `order` (newest or largest first).
 */
export const listQuery = <const T extends readonly [string, ...string[]], F extends z.ZodRawShape>(
  sorts: T,
  def: T[number],
  filters: F,
  defaultPageSize: number = DEFAULT_PAGE_SIZE,
) => z.object({ ...pageQuery(defaultPageSize), ...filters, ...sortQuery(sorts, def) });

/**
 * A yes/no query parameter: `true` or `false` as text; anything else answers "{name} must be
 * true or false."
 */
export const flagParam = (name: string) =>
  z.enum(['true', 'false'], { error: `${name} must be true or false.` });

/** A list's search box: trimmed, blank means no search. */
export const searchParam = optionalText(200, 'The search can be at most 200 characters.');

// ---------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------

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

/** True for a `YYYY-MM-DD` string naming a day that exists (no 2024-02-30). */
export const isRealDate = (s: string) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

/** A calendar day `YYYY-MM-DD` that exists, in the accepted range. */
export const IsoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date in the form YYYY-MM-DD.')
  .refine(isRealDate, 'This date does not exist.')
  .refine(isInDateRange, DATE_RANGE_MESSAGE);

/** An ISO 8601 date-time with an offset (`2024-05-31T12:00:00Z`), in the accepted range. */
export const IsoDateTimeInput = (message = 'Use an ISO date-time, e.g. 2024-05-31T12:00:00Z.') =>
  z.iso.datetime({ offset: true, error: message }).refine(isInDateRange, DATE_RANGE_MESSAGE);

/** A date filter: `YYYY-MM-DD` (a whole day, UTC) or a full ISO date-time. */
export const DateFilter = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], {
    error: 'Use a date like 2024-05-31 or an ISO date-time.',
  })
  .refine(isInDateRange, { error: DATE_RANGE_MESSAGE });

/** `from` (inclusive; a day means its first instant, UTC) and `to` (a day means all of it). */
export const dateRangeQuery = { from: DateFilter.optional(), to: DateFilter.optional() };

const startOf = (v: string) => Date.parse(v.length === 10 ? `${v}T00:00:00.000Z` : v);
const endOf = (v: string) => Date.parse(v.length === 10 ? `${v}T23:59:59.999Z` : v);

/** A query with `from`/`to`, refined so the start may not lie after the end. */
export function fromNotAfterTo<S extends z.ZodType<{ from?: string; to?: string }>>(schema: S): S {
  return schema.refine((q) => !q.from || !q.to || startOf(q.from) <= endOf(q.to), {
    message: 'The start date cannot be after the end date.',
    path: ['to'],
  });
}

/** Dates in answers are ISO 8601 strings. */
export const IsoDateTime = z.string().describe('ISO 8601 timestamp');

// ---------------------------------------------------------------------------
// Money
// ---------------------------------------------------------------------------

/** The largest amount numeric(12,2) holds. */
export const MAX_MONEY = 9_999_999_999.99;

/** True when a number has at most two decimals (cents), tolerant of binary float noise. */
export function hasAtMostTwoDecimals(v: number): boolean {
  const cents = v * 100;
  return Math.abs(cents - Math.round(cents)) < 1e-6;
}

/** A money input: a JSON number ≥ 0 (or > 0 when `positive`) with at most two decimals. */
export function moneyInput(label: string, opts: { positive?: boolean } = {}) {
  const base = z
    .number({
      error: (iss) =>
        iss.input === undefined
          ? `${label} is required.`
          : `${label} must be a number, e.g. 25.50.`,
    })
    .max(MAX_MONEY, { error: `${label} is too large.` })
    .refine(hasAtMostTwoDecimals, { error: `${label} can have at most two decimals (cents).` });
  return opts.positive
    ? base.refine((v) => v > 0, { error: `${label} must be greater than 0.` })
    : base.refine((v) => v >= 0, { error: `${label} cannot be negative.` });
}

/** Money in answers: a JSON number with at most two decimals. */
export const Money = z.number();
