// The names of a report's keys (offer titles, publisher, buyer and campaign names, states, verticals) and of its
// hours' zones: joined in SQL, read for the rows on screen, or ranked for a sort by name.

import { type SQL, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { dateFormat } from '../../../contract/date-formats.ts';
import type { DbOrTx } from '../../db/client.ts';
import { type ReportGroup, sumsOf } from './report-figures.ts';

const rowsOf = <T>(r: unknown): T[] => (r as { rows: T[] }).rows;

/** A text as an element of a Postgres array literal. */
export const quoteArray = (v: string) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`;

/**
 * Where the names stand (the sum of report_names_parts, drizzle/0058): it grows whenever a
 * publisher's, buyer's, offer's or campaign's name may have changed, once that change is
 * committed. Read it before the names it vouches for.
 */
export async function namesStamp(db: DbOrTx): Promise<string> {
  const [row] = rowsOf<{ stamp: string }>(
    await db.execute(sql`select coalesce(sum(n), 0)::text as stamp from report_names_parts`),
  );
  return row?.stamp ?? '';
}

/**
 * Folds the names' parts into one row (the `report-names-fold` job), in one statement: a reader
 * sees the parts before or after it, never both, so the sum never moves. Parts appended while
 * it runs stay for the next fold. Returns how many parts it folded.
 */
export async function foldNamesParts(db: DbOrTx): Promise<number> {
  const [row] = rowsOf<{ folded: number }>(
    await db.execute(sql`with gone as (
        delete from report_names_parts
        where (select count(*) from report_names_parts) > 1
        returning n
      ), kept as (
        insert into report_names_parts (n) select sum(n) from gone having count(*) > 0
      )
      select count(*)::int as folded from gone`),
  );
  return row?.folded ?? 0;
}

/** Kept name orders, per key list (the array itself), while the names' stamp is unchanged. */
const keptRanks = new WeakMap<string[], { stamp: string; length: number; rank: Int32Array }>();

/**
 * Each key's place among all keys of `keys` (a dimension's key list) in the order of their
 * names, ascending (descending is its reverse: names are never null, and ties go by key).
 * Ordering 10k publishers' names costs ~25 ms of database time, so the places are kept while
 * the names' stamp (namesStamp) and the list are unchanged.
 */
export async function nameRanks(
  db: DbOrTx,
  dim: string,
  keys: string[],
  stamp: string,
): Promise<Int32Array> {
  const kept = keptRanks.get(keys);
  if (kept && kept.stamp === stamp && kept.length === keys.length) return kept.rank;
  const length = keys.length;
  const ordered = await namedOrder(db, dim, keys.slice(0, length), 'asc');
  const rank = new Int32Array(length);
  ordered.forEach((place, i) => {
    rank[place] = i;
  });
  keptRanks.set(keys, { stamp, length, rank });
  return rank;
}

/** The words a key without a value reads as, per dimension. */
const noneLabel: Record<string, string> = { buyer: 'No buyer', campaign: 'No campaign' };

/**
 * A dimension's name of key `${alias}.key` and the join it needs: an offer's title, a
 * publisher's or buyer's name (else e-mail), a campaign's name; else the key itself ("Unknown",
 * "No buyer", "No campaign" when empty). '' never reaches a uuid cast.
 */
function nameOf(dim: string, alias: string): { label: SQL; join: SQL } {
  const key = sql.raw(`${alias}.key`);
  const id = sql`nullif(${key}, '')::uuid`;
  const none = sql.raw(`'${noneLabel[dim] ?? 'Unknown'}'`);
  switch (dim) {
    case 'offer':
      return {
        label: sql`coalesce(o.title, ${key})`,
        join: sql`left join offers o on o.id = ${id}`,
      };
    case 'publisher':
    case 'buyer':
      return {
        label: sql`case when ${key} = '' then ${none} else coalesce(nullif(u.name, ''), u.email, ${key}) end`,
        join: sql`left join users u on u.id = ${id}`,
      };
    case 'campaign':
      return {
        label: sql`case when ${key} = '' then ${none} else coalesce(c.name, ${key}) end`,
        join: sql`left join campaigns c on c.id = ${id}`,
      };
    default:
      return { label: sql`case when ${key} = '' then ${none} else ${key} end`, join: sql`` };
  }
}

/**
 * The places (0-based, in `keys`) of these keys of a dimension in the order of their names as
 * `named` gives them, lower-cased, then the key, both in `order` (orderExpr's default).
 */
async function namedOrder(
  db: DbOrTx,
  dim: string,
  keys: string[],
  order: 'asc' | 'desc',
): Promise<number[]> {
  if (keys.length === 0) return [];
  const list = `{${keys.map(quoteArray).join(',')}}`;
  const dir = sql.raw(order === 'asc' ? 'asc' : 'desc');
  const { label, join } = nameOf(dim, 'k');
  const res = rowsOf<{ place: number | string }>(
    await db.execute(sql`
      select k.place - 1 as place from unnest(${list}::text[]) with ordinality as k(key, place) ${join}
      order by lower(${label}) ${dir} nulls last, k.key ${dir}`),
  );
  return res.map((x) => Number(x.place));
}

/** The names of these keys of a dimension, as `named` gives them. */
async function labelsOf(db: DbOrTx, dim: string, keys: string[]): Promise<Map<string, string>> {
  if (dim === 'state') return new Map(keys.map((k) => [k, k === '' ? 'Unknown' : k]));
  if (keys.length === 0) return new Map();
  const list = `{${keys.map(quoteArray).join(',')}}`;
  const { label, join } = nameOf(dim, 'k');
  const res = rowsOf<{ key: string; label: string | null }>(
    await db.execute(
      sql`select k.key, ${label} as label from unnest(${list}::text[]) as k(key) ${join}`,
    ),
  );
  return new Map(res.filter((x) => x.label !== null).map((x) => [x.key, x.label as string]));
}

/** Names read before, per database and dimension, with the stamp they were read at. */
const keptNames = new WeakMap<object, Map<string, { stamp: string; names: Map<string, string> }>>();
/** A dimension's kept names are dropped past this many (~100 bytes each). */
const MAX_KEPT_NAMES = 200_000;

/**
 * labelsOf, with the names read before kept while the names' stamp has not moved: a report over
 * a range nobody asked for before then reads the stamp, not 500 publishers' names (~1.4 ms of
 * database time quiet, ~6 ms under load). The stamp is read first, so a name committed after
 * it makes the kept names look older than they are (read again), never newer. Nothing is kept
 * inside a transaction (it may see its own uncommitted names).
 */
export async function keptLabelsOf(
  db: DbOrTx,
  dim: string,
  keys: string[],
): Promise<Map<string, string>> {
  if (dim === 'state' || db instanceof PgTransaction) return labelsOf(db, dim, keys);
  const stamp = await namesStamp(db);
  let byDim = keptNames.get(db);
  if (!byDim) {
    byDim = new Map();
    keptNames.set(db, byDim);
  }
  let kept = byDim.get(dim);
  if (!kept || kept.stamp !== stamp || kept.names.size > MAX_KEPT_NAMES) {
    kept = { stamp, names: new Map() };
    byDim.set(dim, kept);
  }
  const names = kept.names;
  const missing = keys.filter((k) => !names.has(k));
  if (missing.length > 0) {
    const read = await labelsOf(db, dim, missing);
    for (const k of missing) names.set(k, read.get(k) ?? k);
  }
  return new Map(keys.map((k) => [k, names.get(k) ?? k]));
}

/**
 * The rows of `source` (key and figures) with their names: offer titles, publisher names,
 * "Unknown" for calls without a state; a vertical is its own name (offers summed into it).
 * `paged`: `source` is a page of rows with `groups` and `ord` (their order), kept.
 */
export function named(group: ReportGroup, source: SQL, paged: boolean): SQL {
  const figures = sql.raw(
    'a.calls, a.payable, a.duration_seconds, a.payout, a.revenue, a.revenue_calls, a.revenue_payable, a.revenue_payout, a.disputes',
  );
  const rest = sql.raw(paged ? ', a.groups, a.ord' : '');
  const from = sql`(${source}) a`;
  if (group === 'vertical')
    return sql`select o.vertical as key, o.vertical as label, ${sumsOf('a.')}
        from ${from} join offers o on o.id = a.key::uuid group by o.vertical`;
  const { label, join } = nameOf(group, 'a');
  return sql`select a.key, ${label} as label, ${figures}${rest} from ${from} ${join}`;
}

const zoneNames = new Map<string, string>();

/**
 * The short name of zone tz at an instant ("EST", "EDT", "GMT+5:45"). Formatting is slow, and
 * a range holds one or two offsets: the name is kept per zone and UTC offset.
 */
export function zoneName(tz: string, iso: string): string {
  const at = new Date(iso);
  // The offset from the wall clock (cheap), the name from the formatter once per offset.
  const hourKey = `${tz}|${Math.floor(at.getTime() / 3_600_000)}`;
  const known = zoneNames.get(hourKey);
  if (known) return known;
  const name =
    dateFormat('en-US', {
      timeZone: tz,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    })
      .formatToParts(at)
      .find((x) => x.type === 'timeZoneName')?.value ?? tz;
  if (zoneNames.size > 50_000) zoneNames.clear();
  zoneNames.set(hourKey, name);
  return name;
}
