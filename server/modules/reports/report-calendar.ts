import { addDays, addMonths } from '../../../contract/reports.ts';

/**
 * The block calendar of the report rollups (pure): a range of days as the fewest aligned blocks
 * (days, dekads, months, calendar quarters), and the blocks a report of the last year is made of.
 */

export type BlockLevel = 'day' | 'dekad' | 'month' | 'quarter';
/** A run of whole blocks of one level: the blocks starting from `lo` up to before `hi`. */
export type BlockRun = { level: BlockLevel; lo: string; hi: string };

const isQuarterStart = (d: string) =>
  d.endsWith('-01') && ['01', '04', '07', '10'].includes(d.slice(5, 7));
/** The day after the dekad starting on d (the 1st, 11th or 21st), or null if d starts none. */
export function dekadEnd(d: string): string | null {
  const day = d.slice(8, 10);
  if (day === '01' || day === '11') return addDays(d, 10);
  if (day === '21') return addMonths(d, 1);
  return null;
}

/**
 * [from, to] as the fewest aligned blocks (days, dekads, months, calendar quarters), runs of
 * one level merged: a year from the 25th is 6 days, a month, 3 quarters, a month, 2 dekads and
 * 5 days, each run one range of its index. Greedy from the first day: blocks nest, so the
 * largest block that starts at the cursor and fits is always part of a fewest cover.
 */
export function blockRuns(from: string, to: string): BlockRun[] {
  const end = addDays(to, 1);
  const runs: BlockRun[] = [];
  let c = from;
  while (c < end) {
    let level: BlockLevel = 'day';
    let next = addDays(c, 1);
    const dekad = dekadEnd(c);
    if (isQuarterStart(c) && addMonths(c, 3) <= end) {
      level = 'quarter';
      next = addMonths(c, 3);
    } else if (c.endsWith('-01') && addMonths(c, 1) <= end) {
      level = 'month';
      next = addMonths(c, 1);
    } else if (dekad && dekad <= end) {
      level = 'dekad';
      next = dekad;
    }
    const last = runs.at(-1);
    if (last && last.level === level && last.hi === c) last.hi = next;
    else runs.push({ level, lo: c, hi: next });
    c = next;
  }
  return runs;
}

/**
 * The quarters, months, dekads and days of the 13 months up to `lastPast` (whole ones only),
 * newest first: every block a report of the last year is made of.
 */
export function blocksOfLastYear(lastPast: string): { from: string; to: string }[] {
  const out: { from: string; to: string }[] = [];
  const first = addMonths(`${lastPast.slice(0, 7)}-01`, -13);
  const end = addDays(lastPast, 1);
  let month = `${lastPast.slice(0, 7)}-01`;
  for (let i = 0; i < 14; i++) {
    const next = addMonths(month, 1);
    const quarterEnd = addMonths(month, 3);
    if (isQuarterStart(month) && quarterEnd <= end) {
      out.push({ from: month, to: addDays(quarterEnd, -1) });
    }
    if (next <= end) out.push({ from: month, to: addDays(next, -1) });
    for (const [lo, hi] of [
      [month, addDays(month, 10)],
      [addDays(month, 10), addDays(month, 20)],
      [addDays(month, 20), next],
    ] as const) {
      if (hi <= end) out.push({ from: lo, to: addDays(hi, -1) });
    }
    month = addMonths(month, -1);
  }
  for (let d = lastPast; d >= first; d = addDays(d, -1)) out.push({ from: d, to: d });
  return out;
}

/** [from, to] as its fewest aligned blocks, one by one, each with its first and last day. */
export function singleBlocks(from: string, to: string): { from: string; to: string }[] {
  const out: { from: string; to: string }[] = [];
  for (const run of blockRuns(from, to)) {
    let c = run.lo;
    while (c < run.hi) {
      const next =
        run.level === 'day'
          ? addDays(c, 1)
          : run.level === 'dekad'
            ? (dekadEnd(c) as string)
            : addMonths(c, run.level === 'month' ? 1 : 3);
      out.push({ from: c, to: addDays(next, -1) });
      c = next;
    }
  }
  return out;
}
