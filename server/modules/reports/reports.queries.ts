// Reads of the report rollups (issue 15): report_time_totals (UTC quarter hours, any zone),
// report_day_totals, report_month_totals and report_span_totals (days, months, dekads and
// quarters of the network's time zone, one dimension each, plus 'all'), fed through the
// report_deltas queue (server/modules/reports/report-fold.ts), which every read folds first. A range of days
// is read as the fewest aligned blocks (blockRuns), so a year grouped by publisher sums ~5 rows
// per publisher instead of ~365.

import { type SQL, sql } from 'drizzle-orm';
import {
  addDays,
  daysBetween,
  isSubIdGroup,
  MAX_HOUR_DAYS,
  MAX_REPORT_DAYS,
  previousRange,
  REPORT_ROW_LIMIT,
  type ReportRange,
  resolveRange,
} from '../../../contract/reports.ts';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { keptAnswer } from '../../http/serializer.ts';
import {
  FIGURES,
  figuresAt,
  type KeyFigures,
  keptOver,
  keyFiguresOf,
  keyFiguresOver,
  type RawFigures,
  type SortedPage,
} from './report-cache.ts';
import { blockRuns, singleBlocks } from './report-calendar.ts';
import {
  type Figures,
  figureColumns,
  orderExpr,
  type ReportGroup,
  sortValue,
  sums,
  toFigures,
  zeroIfNull,
} from './report-figures.ts';
import { foldReports } from './report-fold.ts';
import {
  keptLabelsOf,
  named,
  nameRanks,
  namesStamp,
  quoteArray,
  zoneName,
} from './report-names.ts';

/** The owner of the network-wide rows (a publisher's rows carry the publisher's id). */
export const NETWORK_OWNER = '00000000-0000-0000-0000-000000000000';

export type { Figures, ReportGroup } from './report-figures.ts';
export type ReportRow = { key: string; label: string; figures: Figures };

// ---------------------------------------------------------------------------
// Days of the network's time zone
// ---------------------------------------------------------------------------

/** 400 when a range is too long for its grouping. */
export function checkReportSpan(group: ReportGroup, from: string, to: string): void {
  const n = daysBetween(from, to);
  if (group === 'hour' && n > MAX_HOUR_DAYS) {
    throw new AppError(
      'range_too_long',
      `Group by hour covers at most ${MAX_HOUR_DAYS} days; pick a shorter range or group by day.`,
      { status: 400 },
    );
  }
  if (n > MAX_REPORT_DAYS) {
    throw new AppError(
      'range_too_long',
      `A report covers at most ${MAX_REPORT_DAYS} days; pick a shorter range.`,
      { status: 400 },
    );
  }
}

/** The instant a day of zone `tz` starts, as SQL. */
const startOfDay = (day: string, tz: string) => sql`(${day}::date::timestamp at time zone ${tz})`;

type Rows<T> = { rows: T[] };
const rowsOf = <T>(r: unknown): T[] => (r as Rows<T>).rows;

// ---------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------

export type ReportRead = {
  owner: string;
  tz: string;
  from: string;
  to: string;
  group: ReportGroup;
  sort: string;
  order: 'asc' | 'desc';
  /** Only these keys (the previous period of the rows on screen). */
  keys?: string[] | undefined;
  /** Answer every group (no REPORT_ROW_LIMIT), for the previous period. */
  all?: boolean;
  /** The tracker tag a sub-id group reads (sub1–sub5 only). */
  tag?: string | undefined;
};

/**
 * The totals of [from, to] in zone tz for one owner: the 'all' dimension's rows of the fewest
 * aligned blocks (a year: ~10 rows). tz must be the network's zone the day tables are cut in.
 */
export async function reportTotals(
  db: DbOrTx,
  opts: { owner: string; tz: string; from: string; to: string },
): Promise<Figures> {
  const [row] = rowsOf<RawFigures>(
    await db.execute(sql`
      select ${sums} from (${blockRows(opts.owner, 'all', opts.from, opts.to, sql``)}) b`),
  );
  return toFigures(keyFiguresOf(row));
}

/** The rows of a report: one per group, sorted, at most REPORT_ROW_LIMIT (time groups: all). */
export async function reportRows(
  db: DbOrTx,
  r: ReportRead,
): Promise<{ rows: ReportRow[]; groups: number }> {
  const timeGroup = r.group === 'day' || r.group === 'hour';
  if (isSubIdGroup(r.group)) return keyedRows(db, r, subIdSource(r));
  if (!timeGroup && r.group !== 'vertical') return keyedRows(db, r, dimSource(db, r));
  // Days and hours have no names to refresh: the whole answer is kept while its days are.
  if (timeGroup) {
    return keptOver(db, {
      id: ['time', ...readId(r)].join('|'),
      from: r.from,
      to: r.to,
      rows: (v) => v.rows.length,
      compute: () => sqlRows(db, r),
    });
  }
  return sqlRows(db, r);
}

/** Every parameter of a read, for the kept answers' ids. */
const readId = (r: ReportRead) => [
  r.owner,
  r.group,
  r.tz,
  r.from,
  r.to,
  r.sort,
  r.order,
  r.all ? 'all' : '',
  r.keys?.join(',') ?? '*',
];

/** The rows of a report as one SQL statement (time groups, verticals, sorts by name). */
async function sqlRows(db: DbOrTx, r: ReportRead): Promise<{ rows: ReportRow[]; groups: number }> {
  const dir = sql.raw(r.order === 'asc' ? 'asc' : 'desc');
  const orderBy = sql`${orderExpr(r.sort, r.group)} ${dir} nulls last, g.key ${dir}`;
  const order = sql`order by ${orderBy}`;
  const timeGroup = r.group === 'day' || r.group === 'hour';
  const limit = r.all || timeGroup ? sql`` : sql`limit ${REPORT_ROW_LIMIT}`;
  // Names (offer titles, publishers) are joined to the rows on screen only, unless the report
  // is sorted by them: a year by publisher has ~10k groups, and 500 are shown.
  const early = r.sort === 'label' || timeGroup || r.group === 'vertical';
  const source = timeGroup
    ? timeGroups(r)
    : early
      ? named(r.group, dimGroups(r), false)
      : dimGroups(r);
  const page = sql`select g.*, count(*) over () as groups, row_number() over (${order}) as ord
    from g ${order} ${limit}`;
  const res = rowsOf<RawFigures & { key: string; label: string; groups: string | number }>(
    await db.execute(
      early
        ? sql`with g as (${source}) ${page}`
        : sql`with g as (${source}), p as (${page}) select * from (${named(r.group, sql`select * from p`, true)}) n order by n.ord`,
    ),
  );
  return {
    rows: res.map((row) => ({
      key: row.key,
      label: r.group === 'hour' ? `${row.label} ${zoneName(r.tz, row.key)}` : row.label,
      figures: toFigures(keyFiguresOf(row)),
    })),
    groups: Number(res[0]?.groups ?? 0),
  };
}

/** Where a keyed report's groups come from: their rows per block, their order and names. */
type KeySource = {
  /** Names the kept figures (one list of keys per owner and source). */
  id: string;
  /** The key rows (key and summed figures) over the days [lo, hi]. */
  grouped: (lo: string, hi: string) => SQL;
  /** What a page sorted by name also depends on (names change without the figures). */
  stamp: () => Promise<string>;
  /** Each key number's place in name order (keys: the list's keys). */
  ranks: (keys: string[], stamp: string) => Promise<ArrayLike<number>>;
  labels: (keys: string[]) => Promise<Map<string, string>>;
};

/** An offer, publisher or state: the rollups' dimension, names from the database. */
function dimSource(db: DbOrTx, r: ReportRead): KeySource {
  const dim = r.group;
  return {
    id: `${r.owner}|${dim}`,
    grouped: keyGrouped(r.owner, dim),
    stamp: () => namesStamp(db),
    ranks: (keys, stamp) => nameRanks(db, dim, keys, stamp),
    labels: (keys) => keptLabelsOf(db, dim, keys),
  };
}

/**
 * The rows of an offer, publisher, state or sub-id report: the groups' figures from
 * keyFiguresOver (past days kept in memory while unchanged), sorted here exactly as the SQL
 * path sorts (the figure, nulls last, then the key, both in the asked direction), names read
 * for the rows answered only.
 */
async function keyedRows(
  db: DbOrTx,
  r: ReportRead,
  source: KeySource,
): Promise<{ rows: ReportRow[]; groups: number }> {
  // A page sorted by name is kept only while no name changed either.
  const names = r.sort === 'label' ? await source.stamp() : '';
  const { page, groups } = await keptOver<SortedPage>(db, {
    id: ['keyed', source.id, ...readId(r), names].join('|'),
    from: r.from,
    to: r.to,
    rows: (v) => v.page.length,
    compute: async () => {
      const figures = await keyFiguresOver(db, {
        id: source.id,
        tz: r.tz,
        from: r.from,
        to: r.to,
        grouped: source.grouped,
        blocks: singleBlocks,
      });
      const { keys, sums: keySums, present } = figures;
      const wanted = r.keys ? new Set(r.keys) : null;
      // Key numbers with calls (the shown keys only, for a previous period), each figure
      // read once into an array, then the numbers sorted (a year by publisher has 10k groups).
      const value = sortValue(r.sort);
      const dir = r.order === 'asc' ? 1 : -1;
      let all: number[] = [];
      for (const k of present) {
        if (keySums[k * FIGURES]! > 0 && (!wanted || wanted.has(keys[k]!))) all.push(k);
      }
      if (r.sort === 'label') {
        // By name: the database orders the keys by their names, with its collation, exactly as
        // the SQL path orders `lower(label)` (then the key), in the asked direction.
        const rank = await source.ranks(keys, names);
        const dirRank = r.order === 'asc' ? 1 : -1;
        all.sort((a, b) => (rank[a]! - rank[b]!) * dirRank);
      } else {
        all = firstByFigure(all, {
          keys,
          place: (k) => value(keySums, k * FIGURES),
          dir,
          limit: r.all ? all.length : REPORT_ROW_LIMIT,
        });
      }
      const shown = r.all ? all.length : Math.min(all.length, REPORT_ROW_LIMIT);
      const page: [string, KeyFigures][] = [];
      for (let i = 0; i < shown; i++) page.push([keys[all[i]!]!, figuresAt(keySums, all[i]!)]);
      return { page, groups: all.length };
    },
  });
  const labels = await source.labels(page.map(([k]) => k));
  return {
    rows: page.map(([key, f]) => ({
      key,
      label: labels.get(key) ?? key,
      figures: toFigures(f),
    })),
    groups,
  };
}

/**
 * The first `limit` of the key numbers `all` in the order of their figure (`place`; null last
 * either way), then of their key, both in direction `dir` (1 ascending, -1 descending): the
 * order of the SQL path. A year by publisher has ~10k groups and shows 500: the 500th place is
 * found by a native sort of the bare figures, and only the groups up to it (ties included) are
 * sorted by the full rule, instead of 10k groups compared by figure and key.
 */
export function firstByFigure(
  all: number[],
  o: { keys: string[]; place: (k: number) => number | null; dir: 1 | -1; limit: number },
): number[] {
  // Ascending in `dir`'s sense: -figure when descending (+ 0 turns -0 into 0); null last.
  const at = new Float64Array(o.keys.length);
  const places = new Float64Array(all.length);
  all.forEach((k, i) => {
    const v = o.place(k);
    const p = v === null ? Number.POSITIVE_INFINITY : o.dir * v + 0;
    at[k] = p;
    places[i] = p;
  });
  let chosen = all;
  if (all.length > o.limit) {
    const cut = places.sort()[o.limit - 1]!;
    chosen = all.filter((k) => at[k]! <= cut);
  }
  chosen.sort((a, b) => {
    const pa = at[a]!;
    const pb = at[b]!;
    if (pa !== pb) return pa < pb ? -1 : 1;
    const ka = o.keys[a]!;
    const kb = o.keys[b]!;
    return ka === kb ? 0 : (ka < kb ? -1 : 1) * o.dir;
  });
  return chosen.length > o.limit ? chosen.slice(0, o.limit) : chosen;
}

/** What a sub-id report calls the calls whose tag is missing or blank. */
export const NO_SUB_ID = '(none)';

/**
 * A sub-id: the value of the marked tracker tag in each lead's stored `tags`. Read from the
 * leads of each block's days through the time index (leads_ts_id_idx: one range per block),
 * grouped by the tag's value; past blocks are kept in memory while none of their days changed
 * (keyFiguresOver), so a report reads the leads of the days it has not seen, then only today.
 * Network-wide (the admin's report).
 */
function subIdSource(r: ReportRead): KeySource {
  const tag = r.tag ?? '';
  const grouped = (lo: string, hi: string) => sql`
    select coalesce(nullif(btrim(tags ->> ${tag}), ''), '') as key,
           count(*)::bigint as calls,
           count(*) filter (where status = 'approved')::bigint as payable,
           coalesce(sum(coalesce(duration_seconds, call_duration * 60)), 0)::bigint as duration_seconds,
           coalesce(sum(payout) filter (where status = 'approved'), 0) as payout,
           coalesce(sum(revenue), 0) as revenue,
           count(revenue)::bigint as revenue_calls,
           count(*) filter (where status = 'approved' and revenue is not null)::bigint as revenue_payable,
           coalesce(sum(payout) filter (where status = 'approved' and revenue is not null), 0) as revenue_payout,
           coalesce(sum(dispute_count), 0)::bigint as disputes
    from leads
    where "timestamp" >= ${startOfDay(lo, r.tz)} and "timestamp" < ${startOfDay(addDays(hi, 1), r.tz)}
    group by 1`;
  const label = (key: string) => key || NO_SUB_ID;
  return {
    id: `${r.owner}|tag:${tag}`,
    grouped,
    stamp: async () => '',
    ranks: async (keys) => {
      const order = keys
        .map((k, i) => [label(k).toLowerCase(), k, i] as const)
        .sort((a, b) =>
          a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0,
        );
      const rank = new Int32Array(keys.length);
      order.forEach(([, , i], place) => {
        rank[i] = place;
      });
      return rank;
    },
    labels: async (keys) => new Map(keys.map((k) => [k, label(k)])),
  };
}

/** Days or hours of [from, to], every one of them (quiet ones with zeros). */
function timeGroups(r: ReportRead): SQL {
  const start = startOfDay(r.from, r.tz);
  const end = startOfDay(addDays(r.to, 1), r.tz);
  const buckets = sql`
    select bucket, ${figureColumns} from report_time_totals
    where owner = ${r.owner} and bucket >= ${start} and bucket < ${end}`;
  // The buckets are summed per local day (or hour) first, then joined to the list of all days
  // (hours) on equality: a hash join of a few hundred rows, not an expression per pair.
  if (r.group === 'day') {
    // Days of the network's zone are rows of the day table ('all': one row per owner and day).
    return sql`
      select to_char(d, 'YYYY-MM-DD') as key, to_char(d, 'YYYY-MM-DD') as label,
             ${zeroIfNull}
      from generate_series(${r.from}::date, ${r.to}::date, interval '1 day') d
      left join (
        select day, ${sums} from report_day_totals
        where owner = ${r.owner} and dim = 'all' and day >= ${r.from}::date and day <= ${r.to}::date
        group by day
      ) x on x.day = d::date`;
  }
  // An hour starts at the bucket less its local minutes (offsets are multiples of 15 minutes);
  // hours are instants, so the repeated hour of a DST fall-back day is two rows.
  return sql`
    select to_char(h at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as key,
           to_char(h at time zone ${r.tz}, 'YYYY-MM-DD HH24:MI') as label,
           ${zeroIfNull}
    from generate_series(${start}, ${end} - interval '1 hour', interval '1 hour') h
    left join (
      select bucket - make_interval(mins => extract(minute from bucket at time zone ${r.tz})::int) as hour,
             ${sums}
      from (${buckets}) b group by 1
    ) x on x.hour = h`;
}

/** Groups of a dimension over [from, to], summed from the fewest aligned blocks. */
function dimGroups(r: ReportRead): SQL {
  const dim = r.group === 'vertical' ? 'offer' : r.group;
  const keys =
    r.keys && r.group !== 'vertical'
      ? sql` and key = any(${`{${r.keys.map(quoteArray).join(',')}}`}::text[])`
      : sql``;
  return sql`
    select key, '' as label, ${sums} from (${blockRows(r.owner, dim, r.from, r.to, keys)}) x
    group by key having sum(calls) > 0`;
}

/** The key rows (key and summed figures) of one owner's dimension over [lo, hi]. */
export const keyGrouped = (owner: string, dim: string) => (lo: string, hi: string) =>
  sql`
  select key, ${sums} from (${blockRows(owner, dim, lo, hi, sql``)}) x group by key`;

/** The rows (key and figures) of one owner's dimension over the blocks covering [from, to]. */
function blockRows(owner: string, dim: string, from: string, to: string, keys: SQL): SQL {
  // Each run a range of its own index (an OR of ranges would scan the whole dimension).
  const parts = blockRuns(from, to).map(({ level, lo, hi }) => {
    if (level === 'day') {
      return sql`select key, ${figureColumns} from report_day_totals
        where owner = ${owner} and dim = ${dim} and day >= ${lo}::date and day < ${hi}::date ${keys}`;
    }
    if (level === 'month') {
      return sql`select key, ${figureColumns} from report_month_totals
        where owner = ${owner} and dim = ${dim} and month >= ${lo}::date and month < ${hi}::date ${keys}`;
    }
    return sql`select key, ${figureColumns} from report_span_totals
      where owner = ${owner} and dim = ${dim} and span = ${level}
        and start >= ${lo}::date and start < ${hi}::date ${keys}`;
  });
  return sql.join(parts, sql` union all `);
}

// ---------------------------------------------------------------------------
// A whole report (admin and publisher alike) and its CSV
// ---------------------------------------------------------------------------

export type ReportQuery = {
  range: ReportRange;
  from?: string | undefined;
  to?: string | undefined;
  group: ReportGroup;
  sort?: string | undefined;
  order?: 'asc' | 'desc' | undefined;
  compare: boolean;
};

export type Report = {
  timezone: string;
  range: ReportRange;
  from: string;
  to: string;
  previous: { from: string; to: string } | null;
  group: ReportGroup;
  sort: string;
  order: 'asc' | 'desc';
  rows: (ReportRow & { previous_figures: Figures | null })[];
  groups: number;
  totals: Figures;
  previous_totals: Figures | null;
};

/**
 * The report of one owner (NETWORK_OWNER or a publisher) in zone tz: rows, totals and, when
 * compared, the same groups over the previous equal period (days and hours matched by their
 * place in the period: the 3rd day against the 3rd day before).
 */
export async function buildReport(
  db: DbOrTx,
  opts: {
    owner: string;
    tz: string;
    query: ReportQuery;
    now?: Date;
    /** The tracker tag of a sub-id group. */
    tag?: string;
  },
): Promise<Report> {
  const { owner, tz, query: q } = opts;
  const { from, to } = resolveRange(tz, q, opts.now);
  checkReportSpan(q.group, from, to);
  await foldReports(db);
  const timeGroup = q.group === 'day' || q.group === 'hour';
  const sort = q.sort ?? (timeGroup ? 'label' : 'calls');
  const order = q.order ?? (timeGroup && sort === 'label' ? 'asc' : 'desc');
  const read = { owner, tz, from, to, group: q.group, sort, order, tag: opts.tag } as const;
  // The whole answer is kept while none of its days (the previous period's included) changed
  // and, where rows carry names (offers, publishers, buyers, campaigns), no name changed: asking
  // again then costs the stamp reads, and the route sends the JSON it wrote the first time
  // (keptAnswer). Days, hours, states and sub-ids have no names that can change. Not verticals:
  // an offer moved to another vertical moves its calls without a stamp of either kind.
  if (q.group === 'vertical') return reportOf(db, { query: q, read });
  const withNames = !timeGroup && q.group !== 'state' && !isSubIdGroup(q.group);
  const names = withNames ? await namesStamp(db) : '';
  const id = [owner, tz, q.range, from, to, q.group, sort, order, q.compare, opts.tag ?? '', names];
  return keptOver(db, {
    id: ['report', ...id].join('|'),
    from: q.compare ? previousRange(from, to).from : from,
    to,
    rows: (v) => v.rows.length,
    compute: async () => keptAnswer(await reportOf(db, { ...opts, read })),
  });
}

/** The answer of buildReport (rows, totals, the previous period's when compared), read now. */
async function reportOf(
  db: DbOrTx,
  opts: { query: ReportQuery; read: ReportRead },
): Promise<Report> {
  const { query: q, read } = opts;
  const { owner, tz, from, to, sort, order } = read;
  const timeGroup = q.group === 'day' || q.group === 'hour';
  const [current, totals] = await Promise.all([
    reportRows(db, read),
    reportTotals(db, { owner, tz, from, to }),
  ]);
  let rows: Report['rows'] = current.rows.map((r) => ({ ...r, previous_figures: null }));
  let previous: Report['previous'] = null;
  let previousTotals: Figures | null = null;
  if (q.compare) {
    previous = previousRange(from, to);
    const [prevRows, prevTotals] = await Promise.all([
      reportRows(db, {
        ...read,
        ...previous,
        all: true,
        keys: timeGroup ? undefined : current.rows.map((r) => r.key),
      }),
      reportTotals(db, { owner, tz, ...previous }),
    ]);
    previousTotals = prevTotals;
    const shift = daysBetween(from, to);
    const byKey = new Map<string, Figures>();
    for (const r of prevRows.rows) {
      const key =
        q.group === 'day'
          ? addDays(r.key, shift)
          : q.group === 'hour'
            ? shiftWallHour(r.label, shift)
            : r.key;
      if (!byKey.has(key)) byKey.set(key, r.figures);
    }
    rows = current.rows.map((r) => ({
      ...r,
      previous_figures:
        byKey.get(q.group === 'hour' ? wallHour(r.label) : r.key) ??
        toFigures(keyFiguresOf(undefined)),
    }));
  }
  return {
    timezone: tz,
    range: q.range,
    from,
    to,
    previous,
    group: q.group,
    sort,
    order,
    rows,
    groups: current.groups,
    totals,
    previous_totals: previousTotals,
  };
}

/** "2026-03-08 01:00" of an hour label (the wall clock without its zone). */
const wallHour = (label: string) => label.slice(0, 16);
const shiftWallHour = (label: string, days: number) =>
  `${addDays(label.slice(0, 10), days)}${label.slice(10, 16)}`;
