import type { BuyerDashboard } from '@contract/buyer-calls.ts';

/** One day of the burn-down: the budget left at its end (actual), or as projected. */
export type BurnPoint = { day: string; remaining: number | null; projected: number | null };
export type BurnDown = {
  points: BurnPoint[];
  /** Average spend per day of the recent days the projection assumes. */
  perDay: number;
  /** The day the budget runs out at that pace (within the projection), else null. */
  runsOutOn: string | null;
  /** Where the projection ends: the end date, or 30 days ahead without one. */
  until: string;
};

const DAY_MS = 86_400_000;
const cents = (v: number) => Math.round(v * 100);
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const daysBetween = (a: string, b: string) =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);

/**
 * The budget's burn-down from the dashboard (issue 31): the budget left at the end of each of
 * the last 30 days (today's left is budget − spent; a day's is that plus what was spent after
 * it), then projected at the average spend per day since the first day with spend in the
 * window, to the end date (30 days ahead without one), never below zero. Null without a budget.
 * Money in cents while summed, amounts out.
 */
export function burnDown(d: BuyerDashboard): BurnDown | null {
  if (d.budget === null) return null;
  const left = Math.max(0, cents(d.budget) - cents(d.spent_total));
  const spent = new Map(d.days.map((x) => [x.day, cents(x.spent)]));
  const first = addDays(d.today, -29);
  const points: BurnPoint[] = [];
  let after = 0;
  const actual: number[] = [];
  for (let i = 0; i < 30; i++) {
    const day = addDays(d.today, -i);
    actual.push(left + after);
    after += spent.get(day) ?? 0;
  }
  actual.reverse();
  const firstSpend = d.days.find((x) => cents(x.spent) > 0 && x.day >= first)?.day;
  const windowSpend = d.days.reduce((s, x) => s + (x.day >= first ? cents(x.spent) : 0), 0);
  const perDay = firstSpend ? windowSpend / (daysBetween(firstSpend, d.today) + 1) : 0;
  for (let i = 0; i < 30; i++) {
    const day = addDays(first, i);
    points.push({ day, remaining: actual[i]! / 100, projected: i === 29 ? left / 100 : null });
  }
  const until = d.end_date && d.end_date > d.today ? d.end_date : addDays(d.today, 30);
  const ahead = Math.min(daysBetween(d.today, until), 366);
  let runsOutOn: string | null = left === 0 ? d.today : null;
  for (let k = 1; k <= ahead; k++) {
    const rest = Math.max(0, Math.round(left - perDay * k));
    const day = addDays(d.today, k);
    if (rest === 0 && runsOutOn === null) runsOutOn = day;
    points.push({ day, remaining: null, projected: rest / 100 });
  }
  return { points, perDay: Math.round(perDay) / 100, runsOutOn, until };
}
