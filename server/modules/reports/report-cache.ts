// Per-key figures of a report dimension over a range of days, with the past days kept in memory.
//
// A year grouped by publisher sums ~85k rollup rows into ~10k groups: ~50 ms of database time
// and ~10k rows to parse each time it is asked. Past days rarely change, so the sums of each
// aligned block of days (a day, dekad, month or quarter of the network's zone; any range is a
// few of them) are kept per instance, per owner, dimension and zone, and checked on every read
// against report_day_epochs: fold_report_deltas() stamps each day it changes with a new epoch, a
// recount stamps them all ('-infinity'), and a kept block with a newer stamp on any of its days
// is read again. Today (which calls keep changing) is always read from the rollups. So every
// answer counts every lead committed before it was asked for, kept or not. Whole answers are
// kept too (keptOver), while no day of their range has a newer stamp.
import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { addDays, dayIn } from '../../../contract/reports.ts';
import type { DbOrTx } from '../../db/client.ts';
import { cents, centsNumber } from '../../db/money.ts';

/** Summed figure columns as the database answers them. */
export type RawFigures = {
  calls: string | number;
  payable: string | number;
  duration_seconds: string | number;
  payout: string;
  revenue: string;
  revenue_calls: string | number;
  /** Payable calls that carry a revenue, and their payout (what the margin subtracts). */
  revenue_payable: string | number;
  revenue_payout: string;
  disputes: string | number;
};

/**
 * Summed figures of one key; money in whole cents (server/db/money.ts centsNumber: numeric(12,2)
 * sums read exactly, and summed exactly while below 2^53 cents).
 */
export type KeyFigures = {
  calls: number;
  payable: number;
  duration: number;
  payoutCents: number;
  revenueCents: number;
  revenueCalls: number;
  disputes: number;
  /** Payable calls that carry a revenue, and their payout: what the margin subtracts. */
  revenuePayable: number;
  revenuePayoutCents: number;
};

/**
 * One block's sums, compactly: for its n keys, their numbers in the dimension's key list
 * (`keys`) and FIGURES numbers each in `figures` (calls, payable, duration, payout cents,
 * revenue cents, revenue calls, disputes, revenue payable, revenue payout cents): ~76 bytes a
 * key, so a year of 1M leads from 10k publishers (days, dekads, months and quarters;
 * publishers, offers and states) is ~91 MB.
 */
type Kept = { mark: string; keys: Int32Array; figures: Float64Array; size: number };
export const FIGURES = 9;

/**
 * At most this many kept blocks, and this many keys over all of them, per instance (~76 bytes
 * a key: ≤ 190 MB). A year of 1M leads from 10k publishers is ~1.2M keys (the warm-up), so a
 * comparison with the year before still fits beside most of it.
 */
const MAX_KEPT = 4096;
const MAX_KEPT_KEYS = 2_500_000;
const kept = new Map<string, Kept>();
let keptKeys = 0;

/** Each dimension's keys (publisher ids, offer ids, states) by number, as blocks refer to them. */
type KeyList = { numbers: Map<string, number>; keys: string[]; generation: number };
const keyLists = new Map<string, KeyList>();
let generations = 0;
/** A dimension's list is started again past this many keys (its kept blocks go with it). */
const MAX_LIST_KEYS = 500_000;
/**
 * At most this many lists (one per owner and dimension: each publisher's own reports have
 * theirs); the least recently used goes first, its kept blocks then age out.
 */
const MAX_LISTS = 5000;

function keyList(id: string): KeyList {
  let list = keyLists.get(id);
  if (list) {
    keyLists.delete(id);
  } else {
    list = { numbers: new Map(), keys: [], generation: ++generations };
    if (keyLists.size >= MAX_LISTS) keyLists.delete(keyLists.keys().next().value as string);
  }
  keyLists.set(id, list);
  return list;
}

function numberOf(list: KeyList, key: string): number {
  let n = list.numbers.get(key);
  if (n === undefined) {
    n = list.keys.length;
    list.keys.push(key);
    list.numbers.set(key, n);
  }
  return n;
}

/** Reads answered from memory and from the rollups since start (tests, metrics). */
export const reportCacheCounts = { hits: 0, misses: 0 };

const rowsOf = <T>(r: unknown): T[] => (r as { rows: T[] }).rows;
/** A summed money column (numeric(12,2) sums: exact in cents) in whole cents. */
const wholeCents = (v: string | undefined) => centsNumber(cents(v));

/** The latest stamp of [from, to] (and of the last recount), as text: what kept sums compare. */
async function epochMark(db: DbOrTx, from: string, to: string): Promise<string> {
  const [row] = rowsOf<{ mark: string | null }>(
    await db.execute(sql`select max(epoch)::text as mark from report_day_epochs
      where (day >= ${from}::date and day <= ${to}::date) or day = '-infinity'::date`),
  );
  return row?.mark ?? '0';
}

type RawKeyRow = RawFigures & { key: string };

/** The figures of key number `k` in `sums` (FIGURES numbers a key). */
export function figuresAt(sums: Float64Array, k: number): KeyFigures {
  const o = k * FIGURES;
  return {
    calls: sums[o]!,
    payable: sums[o + 1]!,
    duration: sums[o + 2]!,
    payoutCents: sums[o + 3]!,
    revenueCents: sums[o + 4]!,
    revenueCalls: sums[o + 5]!,
    disputes: sums[o + 6]!,
    revenuePayable: sums[o + 7]!,
    revenuePayoutCents: sums[o + 8]!,
  };
}

/**
 * Per-key figures of a range: `keys[k]` has figures `figuresAt(sums, k)`; `present` lists the
 * numbers of the keys with any row (zeros included), the others are not in the range.
 */
export type KeySums = { keys: string[]; sums: Float64Array; present: number[] };

/** Rows (key and figures) as compact sums over `list`'s key numbers. */
async function readRows(db: DbOrTx, rows: SQL, list: KeyList): Promise<Kept> {
  const res = rowsOf<RawKeyRow>(await db.execute(rows));
  const part: Kept = {
    mark: '',
    keys: new Int32Array(res.length),
    figures: new Float64Array(res.length * FIGURES),
    size: Math.max(1, res.length),
  };
  res.forEach((r, j) => {
    part.keys[j] = numberOf(list, r.key);
    put(part.figures, j, r);
  });
  return part;
}

/** Row `r`'s figures into `figures` at place j. */
function put(figures: Float64Array, j: number, r: RawFigures) {
  const o = j * FIGURES;
  figures[o] = Number(r.calls);
  figures[o + 1] = Number(r.payable);
  figures[o + 2] = Number(r.duration_seconds);
  figures[o + 3] = wholeCents(r.payout);
  figures[o + 4] = wholeCents(r.revenue);
  figures[o + 5] = Number(r.revenue_calls);
  figures[o + 6] = Number(r.disputes);
  figures[o + 7] = Number(r.revenue_payable);
  figures[o + 8] = wholeCents(r.revenue_payout);
}

/** One row's figures (none: all zero), as kept blocks hold them: money in whole cents. */
export function keyFiguresOf(r: RawFigures | undefined): KeyFigures {
  const one = new Float64Array(FIGURES);
  if (r) put(one, 0, r);
  return figuresAt(one, 0);
}

/** The sums of `parts` by key number, over `list`. */
function sumParts(list: KeyList, parts: Kept[]): KeySums {
  const width = list.keys.length;
  const sums = new Float64Array(width * FIGURES);
  const seen = new Uint8Array(width);
  for (const { keys, figures } of parts) {
    for (let j = 0; j < keys.length; j++) {
      const k = keys[j]!;
      seen[k] = 1;
      const to = k * FIGURES;
      const from = j * FIGURES;
      for (let f = 0; f < FIGURES; f++) sums[to + f]! += figures[from + f]!;
    }
  }
  const present: number[] = [];
  for (let k = 0; k < width; k++) if (seen[k]) present.push(k);
  return { keys: list.keys, sums, present };
}

function remember(id: string, entry: Kept) {
  const old = kept.get(id);
  if (old) {
    kept.delete(id);
    keptKeys -= old.size;
  }
  while (kept.size >= MAX_KEPT || (kept.size > 0 && keptKeys + entry.size > MAX_KEPT_KEYS)) {
    const [oldest, value] = kept.entries().next().value as [string, Kept];
    kept.delete(oldest);
    keptKeys -= value.size;
  }
  kept.set(id, entry);
  keptKeys += entry.size;
}

const databaseIds = new WeakMap<object, string>();

/**
 * Which database kept sums and answers belong to: a process may open several (tests do), whose
 * stamps can be equal. Null inside a transaction, which keeps nothing (it may see its own writes).
 */
function scopeOf(db: DbOrTx): string | null {
  if (db instanceof PgTransaction) return null;
  let id = databaseIds.get(db);
  if (!id) {
    id = randomUUID();
    databaseIds.set(db, id);
  }
  return id;
}

/** Forgets every kept sum and page (tests). */
export function forgetKeptReports(): void {
  kept.clear();
  keptKeys = 0;
  keyLists.clear();
  keptAnswers.clear();
  keptAnswerRows = 0;
}

/** A report's sorted rows (keys and figures, before names) and its number of groups. */
export type SortedPage = { page: [string, KeyFigures][]; groups: number };

/**
 * At most this many kept answers per instance, each of at most MAX_KEPT_ROWS rows, and at most
 * MAX_KEPT_ANSWER_ROWS rows over all of them: a whole report kept with its JSON and CSV is ~1.2
 * KB a row (a year by publisher, 500 rows, ~0.6 MB), so ≤ ~60 MB.
 */
const MAX_KEPT_ANSWERS = 128;
const MAX_KEPT_ROWS = 2000;
const MAX_KEPT_ANSWER_ROWS = 50_000;
const keptAnswers = new Map<string, { mark: string; value: unknown; rows: number }>();
let keptAnswerRows = 0;

/** Drops the kept answer `id`, if any. */
function forgetAnswer(id: string) {
  const old = keptAnswers.get(id);
  if (!old) return;
  keptAnswers.delete(id);
  keptAnswerRows -= old.rows;
}

/**
 * The answer `id` (every parameter of the report in it) over [from, to]: kept while no day of
 * the range, today included, got a newer stamp, so asking again costs one stamp read instead
 * of merging and sorting ~10k groups. `compute` makes it otherwise; `rows` says how big it is.
 */
export async function keptOver<T>(
  db: DbOrTx,
  opts: { id: string; from: string; to: string; compute: () => Promise<T>; rows: (v: T) => number },
): Promise<T> {
  const scope = scopeOf(db);
  if (!scope) return opts.compute();
  const id = `${scope}|${opts.id}`;
  const mark = await epochMark(db, opts.from, opts.to);
  const hit = keptAnswers.get(id);
  if (hit && hit.mark === mark) {
    reportCacheCounts.hits++;
    keptAnswers.delete(id);
    keptAnswers.set(id, hit);
    return hit.value as T;
  }
  const value = await opts.compute();
  const rows = opts.rows(value);
  if (rows <= MAX_KEPT_ROWS) {
    forgetAnswer(id);
    while (
      keptAnswers.size > 0 &&
      (keptAnswers.size >= MAX_KEPT_ANSWERS || keptAnswerRows + rows > MAX_KEPT_ANSWER_ROWS)
    ) {
      forgetAnswer(keptAnswers.keys().next().value as string);
    }
    keptAnswers.set(id, { mark, value, rows });
    keptAnswerRows += rows;
  }
  return value;
}

/** How many whole answers and rows of them are kept now (tests). */
export function keptAnswerSizes(): { answers: number; rows: number } {
  return { answers: keptAnswers.size, rows: keptAnswerRows };
}

/** How many blocks and keys are kept now (tests, metrics). */
export function keptBlockSizes(): { blocks: number; keys: number } {
  return { blocks: kept.size, keys: keptKeys };
}

/** Blocks of past days read from the rollups, and taken from memory, since start (tests, metrics). */
export const reportBlockCounts = { read: 0, kept: 0 };

/** A block of days, first and last day included. */
export type DayBlock = { from: string; to: string };

/** Block reads under way, by block and stamp: requests asking at once share one read. */
const reading = new Map<string, Promise<Kept>>();

/** The key list of a dimension (`id`: owner and dimension) in zone tz, started again when too big. */
function listFor(scope: string, id: string, tz: string): { list: KeyList; listId: string } {
  const listId = `${scope}|${id}|${tz}`;
  let list = keyList(listId);
  if (list.keys.length > MAX_LIST_KEYS) {
    // Kept blocks of the old list point into it: their ids carry its generation, so they are
    // never taken again and age out.
    keyLists.delete(listId);
    list = keyList(listId);
  }
  return { list, listId };
}

/**
 * The sums of `blocks`: kept ones at once, ones being read by another request from that read,
 * the rest read now in one statement (and kept). `read` says how many this call read.
 */
async function keptBlocks(
  db: DbOrTx,
  opts: {
    list: KeyList;
    listId: string;
    blocks: DayBlock[];
    grouped: (from: string, to: string) => SQL;
  },
): Promise<{ parts: Promise<Kept>[]; read: number }> {
  const { list, listId, blocks } = opts;
  const idOf = (b: DayBlock) => `${listId}|${list.generation}|${b.from}|${b.to}`;
  // The stamps first: a fold committed between them and the sums makes a block look older than
  // it is (read again next time), never newer.
  const marks = await blockMarks(db, blocks);
  const parts: Promise<Kept>[] = [];
  const missing: number[] = [];
  blocks.forEach((b, i) => {
    const id = idOf(b);
    const hit = kept.get(id);
    if (hit && hit.mark === marks[i]) {
      kept.delete(id);
      kept.set(id, hit);
      parts.push(Promise.resolve(hit));
      reportBlockCounts.kept++;
      return;
    }
    const shared = reading.get(`${id}|${marks[i]}`);
    if (shared) parts.push(shared);
    else missing.push(i);
  });
  if (missing.length === 0) return { parts, read: 0 };
  reportBlockCounts.read += missing.length;
  // The missing blocks in one statement, each block's rows tagged with its place.
  const selects = missing.map((i) => {
    const b = blocks[i]!;
    return sql`select ${i}::int as block, x.* from (${opts.grouped(b.from, b.to)}) x`;
  });
  const read = readBlocks(db, list, sql.join(selects, sql` union all `), missing, marks);
  for (const i of missing) {
    const id = idOf(blocks[i]!);
    const key = `${id}|${marks[i]}`;
    const one = read.then((m) => m.get(i)!);
    reading.set(key, one);
    parts.push(one);
    // Kept once read; no longer under way either way.
    one.then(
      (k) => {
        reading.delete(key);
        remember(id, k);
      },
      () => reading.delete(key),
    );
  }
  return { parts, read: missing.length };
}

/**
 * Reads and keeps the blocks a report of the last year is made of (`blocks`), a few at a time,
 * so that the first reports after a start find them (the warm-up of registerReportWarmUp).
 * Blocks kept or being read already are skipped.
 */
export async function keepBlocks(
  db: DbOrTx,
  opts: {
    id: string;
    tz: string;
    blocks: DayBlock[];
    grouped: (from: string, to: string) => SQL;
    stop?: () => boolean;
  },
): Promise<number> {
  const scope = scopeOf(db);
  if (!scope) return 0;
  const { list, listId } = listFor(scope, opts.id, opts.tz);
  let read = 0;
  for (let i = 0; i < opts.blocks.length && !opts.stop?.(); i += 6) {
    const found = await keptBlocks(db, {
      list,
      listId,
      blocks: opts.blocks.slice(i, i + 6),
      grouped: opts.grouped,
    });
    await Promise.all(found.parts);
    read += found.read;
  }
  return read;
}

/**
 * Figures per key of [from, to], every key with any row (zeros included). `grouped(lo, hi)`
 * is the SQL of the key rows (key and summed figures) over [lo, hi]. Days before today (in tz)
 * are cut into the aligned blocks `blocks(from, to)` gives (days, dekads, months, quarters),
 * and each block's sums are kept in memory while none of its days changed: any other range
 * made of the same blocks (last month, this quarter, a year from another day) reuses them, so
 * a range nobody asked for before costs its few new edge days, not ~85k rollup rows. Today
 * is read from the rollups.
 */
export async function keyFiguresOver(
  db: DbOrTx,
  opts: {
    id: string;
    tz: string;
    from: string;
    to: string;
    grouped: (from: string, to: string) => SQL;
    blocks: (from: string, to: string) => DayBlock[];
    now?: Date;
  },
): Promise<KeySums> {
  const lastPast = addDays(dayIn(opts.tz, opts.now ?? new Date()), -1);
  const scope = scopeOf(db);
  if (!scope || opts.from > lastPast) {
    const list: KeyList = { numbers: new Map(), keys: [], generation: 0 };
    return sumParts(list, [await readRows(db, opts.grouped(opts.from, opts.to), list)]);
  }
  let pastTo = opts.to;
  if (pastTo > lastPast) pastTo = lastPast;
  const { list, listId } = listFor(scope, opts.id, opts.tz);
  const blocks = opts.blocks(opts.from, pastTo);
  const found = await keptBlocks(db, { list, listId, blocks, grouped: opts.grouped });
  if (found.read === 0) reportCacheCounts.hits++;
  else reportCacheCounts.misses++;
  const parts = await Promise.all(found.parts);
  // Today from the rollups, numbered in the same list, summed with the kept blocks.
  if (pastTo !== opts.to) {
    parts.push(await readRows(db, opts.grouped(addDays(pastTo, 1), opts.to), list));
  }
  return sumParts(list, parts);
}

/** The latest stamp of each block's days (or of the last recount, if later), as text. */
async function blockMarks(db: DbOrTx, blocks: DayBlock[]): Promise<string[]> {
  if (blocks.length === 0) return [];
  const res = rowsOf<{ mark: string }>(
    await db.execute(sql`
      select greatest(
        coalesce((select max(e.epoch) from report_day_epochs e where e.day >= b.lo and e.day <= b.hi), 0),
        coalesce((select epoch from report_day_epochs where day = '-infinity'::date), 0))::text as mark
      from unnest(${`{${blocks.map((b) => b.from).join(',')}}`}::date[],
                  ${`{${blocks.map((b) => b.to).join(',')}}`}::date[]) with ordinality as b(lo, hi, i)
      order by b.i`),
  );
  return res.map((r) => r.mark);
}

/** The rows of `rows` (block, key, figures) as each block's compact sums. */
async function readBlocks(
  db: DbOrTx,
  list: KeyList,
  rows: SQL,
  wanted: number[],
  marks: string[],
): Promise<Map<number, Kept>> {
  const res = rowsOf<RawKeyRow & { block: number }>(await db.execute(rows));
  const counts = new Map<number, number>(wanted.map((i) => [i, 0]));
  for (const r of res) counts.set(r.block, (counts.get(r.block) ?? 0) + 1);
  const out = new Map<number, Kept>();
  for (const [i, n] of counts) {
    out.set(i, {
      mark: marks[i]!,
      keys: new Int32Array(n),
      figures: new Float64Array(n * FIGURES),
      size: Math.max(1, n),
    });
  }
  const filled = new Map<number, number>();
  for (const r of res) {
    const block = out.get(r.block)!;
    const j = filled.get(r.block) ?? 0;
    filled.set(r.block, j + 1);
    block.keys[j] = numberOf(list, r.key);
    put(block.figures, j, r);
  }
  return out;
}
