// Per-key figures of a report dimension over a range of days, with the past days kept in memory.
//
// A year grouped by publisher sums ~85k rollup rows into ~10k groups: ~100 ms of database time
// each time it is asked. Past days rarely change, so their sums are kept per instance (the
// range, the owner, the dimension and the zone as the key) and checked on every read against
// report_day_epochs: fold_report_deltas() stamps each day it changes with a new epoch, a recount
// stamps them all ('-infinity'), and kept sums whose range has a newer stamp than when they were
// read are read again. Today (which calls keep changing) is always read from the rollups. So
// every answer counts every lead committed before it was asked for, kept or not.
import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { addDays, dayIn } from '../../contract/reports.ts';
import type { DbOrTx } from './client.ts';
import type { RawFigures } from './reports.ts';

/** Summed figures of one key; money in cents (exact: numeric(12,2) sums). */
export type KeyFigures = {
  calls: number;
  payable: number;
  duration: number;
  payoutCents: number;
  revenueCents: number;
  revenueCalls: number;
  disputes: number;
};

type Kept = { mark: string; figures: Map<string, KeyFigures>; size: number };

/** At most this many kept ranges, and this many keys over all of them, per instance. */
const MAX_KEPT = 64;
const MAX_KEPT_KEYS = 400_000;
const kept = new Map<string, Kept>();
let keptKeys = 0;

/** Reads answered from memory and from the rollups since start (tests, metrics). */
export const reportCacheCounts = { hits: 0, misses: 0 };

const rowsOf = <T>(r: unknown): T[] => (r as { rows: T[] }).rows;
const cents = (v: string | number) => Math.round(Number(v) * 100);

/** The latest stamp of [from, to] (and of the last recount), as text: what kept sums compare. */
async function epochMark(db: DbOrTx, from: string, to: string): Promise<string> {
  const [row] = rowsOf<{ mark: string | null }>(
    await db.execute(sql`select max(epoch)::text as mark from report_day_epochs
      where (day >= ${from}::date and day <= ${to}::date) or day = '-infinity'::date`),
  );
  return row?.mark ?? '0';
}

type RawKeyRow = RawFigures & { key: string };

async function readFigures(db: DbOrTx, rows: SQL): Promise<Map<string, KeyFigures>> {
  const out = new Map<string, KeyFigures>();
  for (const r of rowsOf<RawKeyRow>(await db.execute(rows))) {
    out.set(r.key, {
      calls: Number(r.calls),
      payable: Number(r.payable),
      duration: Number(r.duration_seconds),
      payoutCents: cents(r.payout),
      revenueCents: cents(r.revenue),
      revenueCalls: Number(r.revenue_calls),
      disputes: Number(r.disputes),
    });
  }
  return out;
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
  keptAnswers.clear();
}

/** A report's sorted rows (keys and figures, before names) and its number of groups. */
export type SortedPage = { page: [string, KeyFigures][]; groups: number };

/** At most this many kept answers per instance, each of at most MAX_KEPT_ROWS rows. */
const MAX_KEPT_ANSWERS = 128;
const MAX_KEPT_ROWS = 2000;
const keptAnswers = new Map<string, { mark: string; value: unknown }>();

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
  if (opts.rows(value) <= MAX_KEPT_ROWS) {
    keptAnswers.delete(id);
    if (keptAnswers.size >= MAX_KEPT_ANSWERS) {
      keptAnswers.delete(keptAnswers.keys().next().value as string);
    }
    keptAnswers.set(id, { mark, value });
  }
  return value;
}

/**
 * Figures per key of [from, to], every key with any row (zeros included). `grouped(lo, hi)`
 * is the SQL of the key rows (key and summed figures) over [lo, hi]. Days before today (in tz)
 * come from memory when unchanged since they were read; the rest from the rollups.
 */
export async function keyFiguresOver(
  db: DbOrTx,
  opts: {
    id: string;
    tz: string;
    from: string;
    to: string;
    grouped: (from: string, to: string) => SQL;
    now?: Date;
  },
): Promise<Map<string, KeyFigures>> {
  const lastPast = addDays(dayIn(opts.tz, opts.now ?? new Date()), -1);
  const scope = scopeOf(db);
  if (!scope || opts.from > lastPast) return readFigures(db, opts.grouped(opts.from, opts.to));
  let pastTo = opts.to;
  if (pastTo > lastPast) pastTo = lastPast;
  const id = `${scope}|${opts.id}|${opts.tz}|${opts.from}|${pastTo}`;
  // The stamp first: a fold committed between it and the sums makes them look older than they
  // are (read again next time), never newer.
  const mark = await epochMark(db, opts.from, pastTo);
  let past = kept.get(id);
  if (past && past.mark === mark) {
    reportCacheCounts.hits++;
    kept.delete(id);
    kept.set(id, past);
  } else {
    reportCacheCounts.misses++;
    const figures = await readFigures(db, opts.grouped(opts.from, pastTo));
    past = { mark, figures, size: figures.size };
    remember(id, past);
  }
  if (pastTo === opts.to) return past.figures;
  const recent = await readFigures(db, opts.grouped(addDays(pastTo, 1), opts.to));
  const all = new Map(past.figures);
  for (const [key, f] of recent) {
    const p = all.get(key);
    all.set(
      key,
      p
        ? {
            calls: p.calls + f.calls,
            payable: p.payable + f.payable,
            duration: p.duration + f.duration,
            payoutCents: p.payoutCents + f.payoutCents,
            revenueCents: p.revenueCents + f.revenueCents,
            revenueCalls: p.revenueCalls + f.revenueCalls,
            disputes: p.disputes + f.disputes,
          }
        : f,
    );
  }
  return all;
}
