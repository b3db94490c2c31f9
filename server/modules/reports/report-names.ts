// The names of a report's keys (offer titles, publisher, buyer and campaign names, states, verticals) and of its
// hours' zones: joined in SQL, read for the rows on screen, or ranked for a sort by name.

import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { type ReportGroup, sumsOf } from './report-figures.ts';

const rowsOf = <T>(r: unknown): T[] => (r as { rows: T[] }).rows;

/** A text as an element of a Postgres array literal. */
export const quoteArray = (v: string) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`;

/** Where report_names_epoch stands: it moves whenever a publisher's or offer's name may change. */
export async function namesStamp(db: DbOrTx): Promise<string> {
  const [row] = rowsOf<{ stamp: string }>(
    await db.execute(sql`select last_value::text || ':' || is_called::text as stamp
      from report_names_epoch`),
  );
  return row?.stamp ?? '';
}

/** Kept name orders, per key list (the array itself), while the names' stamp is unchanged. */
const keptRanks = new WeakMap<string[], { stamp: string; length: number; rank: Int32Array }>();

/**
 * Each key's place among all keys of `keys` (a dimension's key list) in the order of their
 * names, ascending (descending is its reverse: names are never null, and ties go by key).
 * Ordering 10k publishers' names costs ~25 ms of database time, so the places are kept while
 * `report_names_epoch` (moved by any change of a name, drizzle/0025) and the list are unchanged.
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
export async function labelsOf(
  db: DbOrTx,
  dim: string,
  keys: string[],
): Promise<Map<string, string>> {
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

const zoneFormats = new Map<string, Intl.DateTimeFormat>();
const zoneNames = new Map<string, string>();

/**
 * The short name of zone tz at an instant ("EST", "EDT", "GMT+5:45"). Formatting is slow, and
 * a range holds one or two offsets: the name is kept per zone and UTC offset.
 */
export function zoneName(tz: string, iso: string): string {
  const at = new Date(iso);
  let f = zoneFormats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    zoneFormats.set(tz, f);
  }
  // The offset from the wall clock (cheap), the name from the formatter once per offset.
  const hourKey = `${tz}|${Math.floor(at.getTime() / 3_600_000)}`;
  const known = zoneNames.get(hourKey);
  if (known) return known;
  const name = f.formatToParts(at).find((x) => x.type === 'timeZoneName')?.value ?? tz;
  if (zoneNames.size > 50_000) zoneNames.clear();
  zoneNames.set(hourKey, name);
  return name;
}
