import { z } from 'zod';
import { flagParam, IsoDay, Money, oneOf } from './list.ts';
import { Balance } from './money.ts';
import { trackerTagName } from './outbound.ts';
import { type ReportRange, reportRanges } from './report-days.ts';

/**
 * Reports (issue 15): figures of the leads over a range of days of the network's time zone,
 * grouped by one dimension, with the previous equal period beside them.
 */

// The ranges and the days of the network's time zone, zod-free for the first screens' range pickers.
export {
  addDays,
  addMonths,
  dayIn,
  daysBetween,
  firstOfMonth,
  previousRange,
  type ReportRange,
  reportRangeLabels,
  reportRanges,
  resolveRange,
} from './report-days.ts';

/** The sub-ids a report groups by: each is a tracker tag the operator marks (report settings). */
export const subIdGroups = ['sub1', 'sub2', 'sub3', 'sub4', 'sub5'] as const;
export type SubIdGroup = (typeof subIdGroups)[number];
export const isSubIdGroup = (g: string): g is SubIdGroup =>
  (subIdGroups as readonly string[]).includes(g);

/**
 * Admin groupings. Buyer and campaign (issue 31): the lead's buyer campaign and its buyer, ''
 * for calls no campaign took ("No campaign", "No buyer").
 */
export const adminReportGroups = [
  'day',
  'hour',
  'offer',
  'vertical',
  'publisher',
  'buyer',
  'campaign',
  'state',
  ...subIdGroups,
] as const;
export type AdminReportGroup = (typeof adminReportGroups)[number];

/** What a publisher may group their own leads by. */
export const publisherReportGroups = ['day', 'offer', 'state'] as const;
export type PublisherReportGroup = (typeof publisherReportGroups)[number];

export const reportGroupLabels: Record<AdminReportGroup, string> = {
  day: 'Day',
  hour: 'Hour',
  offer: 'Offer',
  vertical: 'Vertical',
  publisher: 'Publisher',
  buyer: 'Buyer',
  campaign: 'Campaign',
  state: 'Caller state',
  sub1: 'Sub 1',
  sub2: 'Sub 2',
  sub3: 'Sub 3',
  sub4: 'Sub 4',
  sub5: 'Sub 5',
};

/**
 * GET/PUT /admin/report-settings: the tracker tag each sub-id reads (sub1 first; '' or a
 * missing entry: that sub-id is not set). Reports group the stored tags by it.
 */
export const ReportSettings = z.object({
  sub_id_tags: z
    .array(z.union([z.literal(''), trackerTagName]))
    .max(subIdGroups.length, { error: `At most ${subIdGroups.length} sub-ids (sub1–sub5).` }),
});
export type ReportSettings = z.infer<typeof ReportSettings>;
/** The answer: always five entries, '' where a sub-id is not set. */
export const SavedReportSettings = z.object({ sub_id_tags: z.array(z.string()) });
export type SavedReportSettings = z.infer<typeof SavedReportSettings>;

/**
 * Columns a report sorts by: `label` (the group's own column: day, offer title, …) and the
 * figures. A publisher's report has the call figures; the admin's adds the revenue ones and
 * the disputes.
 */
const figureSorts = ['calls', 'payable_calls', 'payable_rate', 'avg_duration', 'payout'] as const;
const revenueSorts = ['revenue', 'margin', 'margin_pct', 'payout_without_revenue'] as const;
export const publisherReportSorts = ['label', ...figureSorts] as const;
export const reportSorts = [...publisherReportSorts, ...revenueSorts, 'disputes'] as const;
export type ReportSort = (typeof reportSorts)[number];

/** Group by hour covers at most this many days (24 rows a day). */
export const MAX_HOUR_DAYS = 31;
/** A report covers at most this many days. */
export const MAX_REPORT_DAYS = 3_660;
/** The most rows a report answers (publisher grouping can have thousands): the first by sort. */
export const REPORT_ROW_LIMIT = 500;

const rangeFields = {
  range: oneOf(reportRanges, 'Range').default('last_7_days'),
  /** First day of a custom range (YYYY-MM-DD, network time zone). */
  from: IsoDay.optional(),
  /** Last day of a custom range, included. */
  to: IsoDay.optional(),
  order: z.enum(['asc', 'desc'], { error: 'Order must be asc or desc.' }).optional(),
  /** `true`: each figure also for the previous equal period. */
  compare: flagParam('compare')
    .default('false')
    .transform((v) => v === 'true'),
};

function checkRange(q: { range: ReportRange; from?: string | undefined; to?: string | undefined }) {
  return q.range !== 'custom' || (q.from !== undefined && q.to !== undefined);
}

const rangeMessage = {
  message: 'A custom range needs a first day (from) and a last day (to).',
  path: ['from'],
};
const orderMessage = {
  message: 'The first day cannot be after the last day.',
  path: ['to'],
};
const fromBeforeTo = (q: { from?: string | undefined; to?: string | undefined }) =>
  !q.from || !q.to || q.from <= q.to;

export const AdminReportQuery = z
  .object({
    ...rangeFields,
    group: z
      .enum(adminReportGroups, { error: `Group by one of: ${adminReportGroups.join(', ')}.` })
      .default('day'),
    sort: z.enum(reportSorts, { error: `Sort by one of: ${reportSorts.join(', ')}.` }).optional(),
  })
  .refine(checkRange, rangeMessage)
  .refine(fromBeforeTo, orderMessage);
export type AdminReportQuery = z.infer<typeof AdminReportQuery>;

export const PublisherReportQuery = z
  .object({
    ...rangeFields,
    group: z
      .enum(publisherReportGroups, {
        error: `Group by one of: ${publisherReportGroups.join(', ')}.`,
      })
      .default('day'),
    sort: z
      .enum(publisherReportSorts, { error: `Sort by one of: ${publisherReportSorts.join(', ')}.` })
      .optional(),
  })
  .refine(checkRange, rangeMessage)
  .refine(fromBeforeTo, orderMessage);
export type PublisherReportQuery = z.infer<typeof PublisherReportQuery>;

/** The figures of one row (or of the totals). */
const figures = {
  calls: z.number().int(),
  payable_calls: z.number().int(),
  /** payable_calls / calls in percent (one decimal); null without calls. */
  payable_rate: z.number().nullable(),
  /** Average call length in seconds (whole); null without calls. */
  avg_duration: z.number().nullable(),
  /** Payout of the payable calls. */
  payout: Money,
};
const revenueFigures = {
  /** Revenue of the calls that carry one (any status); null when none does. */
  revenue: Money.nullable(),
  /**
   * revenue − the payout of the payable calls among those that carry a revenue (like with
   * like: a payable call without a revenue is not in it); null when no call carries a revenue.
   */
  margin: Money.nullable(),
  /** margin ÷ revenue in percent, one decimal; null without revenue (or a revenue of zero). */
  margin_pct: z.number().nullable(),
  /** Payable calls that carry no revenue: their payout is in `payout`, not in the margin. */
  payable_without_revenue: z.number().int(),
  /** The payout of those calls (payout − payout_without_revenue is what the margin subtracts). */
  payout_without_revenue: Money,
  /** Disputes publishers filed on these calls (any status: open, accepted, declined). */
  disputes: z.number().int(),
};

export const PublisherReportFigures = z.object(figures);
export type PublisherReportFigures = z.infer<typeof PublisherReportFigures>;
export const AdminReportFigures = z.object({ ...figures, ...revenueFigures });
export type AdminReportFigures = z.infer<typeof AdminReportFigures>;

const rowBase = {
  /**
   * The group's key: a day (`YYYY-MM-DD`), an hour's first instant (ISO), an offer or publisher
   * id, a vertical, a state ('' when the call had none).
   */
  key: z.string(),
  /** What the row is called on screen and in CSV: an offer's title, "2026-03-08 01:00 EST", … */
  label: z.string(),
};

/** What every answer over a range of days starts with: its zone and its days. */
const rangeHead = {
  /** The network's time zone the days are cut in. */
  timezone: z.string(),
  range: z.enum(reportRanges),
  /** First and last day (included) of the range. */
  from: z.string(),
  to: z.string(),
};

const reportShape = <F extends z.ZodType>(fig: F) =>
  z.object({
    ...rangeHead,
    /** The previous equal period, when compared. */
    previous: z.object({ from: z.string(), to: z.string() }).nullable(),
    group: z.string(),
    sort: z.string(),
    order: z.enum(['asc', 'desc']),
    rows: z.array(z.object({ ...rowBase, figures: fig, previous_figures: fig.nullable() })),
    /** How many groups the range has; rows holds the first REPORT_ROW_LIMIT by the sort. */
    groups: z.number().int(),
    totals: fig,
    previous_totals: fig.nullable(),
  });

export const AdminReport = reportShape(AdminReportFigures);
export type AdminReport = z.infer<typeof AdminReport>;
export const PublisherReport = reportShape(PublisherReportFigures);
export type PublisherReport = z.infer<typeof PublisherReport>;

/**
 * A figure that had nothing before (no earlier figure, or zero) and has one now: the comparison
 * says "new" instead of a previous value and a change in %.
 */
export function isNewFigure(current: number | null, previous: number | null): boolean {
  return (previous === null || previous === 0) && current !== null && current !== 0;
}

/**
 * The heading of a report's group column (screen and CSV): days and hours carry the time zone
 * they are cut in ("Day (America/New_York)"); names do not ("Publisher").
 */
export function reportGroupHeading(label: string, group: string, timezone: string): string {
  return group === 'day' || group === 'hour' ? `${label} (${timezone})` : label;
}

/** Change of a figure against the previous period in percent; null when there is none to compare. */
export function changePercent(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null || previous === 0) return null;
  return Math.round(((current - previous) / Math.abs(previous)) * 1000) / 10;
}

// ---------------------------------------------------------------------------
// Dashboards over a picked range (the same presets and days as the reports)
// ---------------------------------------------------------------------------

/** GET /admin/stats/range and /publisher/overview/range: one range of days, no grouping. */
export const DashboardRangeQuery = z
  .object({
    range: rangeFields.range,
    from: rangeFields.from,
    to: rangeFields.to,
  })
  .refine(checkRange, rangeMessage)
  .refine(fromBeforeTo, orderMessage);
export type DashboardRangeQuery = z.infer<typeof DashboardRangeQuery>;

/** The admin dashboard over a range: the Total Payouts card and the chart's days. */
export const AdminRangeStats = z.object({
  ...rangeHead,
  /** Payouts dated in the range and marked paid (the Total Payouts card). */
  total_payouts: Money,
  /** Payouts dated in the range, in a run not yet paid (shown apart under the card). */
  recorded_payouts: Money,
  /** Calls in the range. */
  leads: z.number().int(),
  /** Every day of the range (network zone), oldest first, quiet days zero. */
  days: z.array(z.object({ date: z.string(), leads: z.number().int(), payouts: Money })),
});
export type AdminRangeStats = z.infer<typeof AdminRangeStats>;

/** The publisher overview over a range: the lead and payout cards and the chart's days. */
export const PublisherRangeOverview = z.object({
  ...rangeHead,
  /** Payout of the publisher's payable (approved) calls in the range. */
  total_earnings: Money,
  /** The publisher's calls in the range. */
  total_leads: z.number().int(),
  /** Earned and not paid yet, now (BALANCE_RULES.unpaid): not bound to the range. */
  pending_payouts: Money,
  /** Every money figure now, as every screen defines them (contract/money.ts Balance). */
  balance: Balance,
  /** Every day of the range (network zone): calls and the payout of the payable ones. */
  days: z.array(z.object({ date: z.string(), leads: z.number().int(), earnings: Money })),
});
export type PublisherRangeOverview = z.infer<typeof PublisherRangeOverview>;
