import { describe, expect, it } from 'vitest';
import { threeDaysOfSpend } from '@/test/buyer-dashboard-fixture.ts';
import { burnDown } from './burn-down.ts';

const base = threeDaysOfSpend;

describe('burnDown', () => {
  it('is the budget left each day, then projected at the recent pace until it runs out', () => {
    const b = burnDown(base)!;
    const at = (day: string) => b.points.find((p) => p.day === day)!;
    expect(at('2026-11-24')).toEqual({ day: '2026-11-24', remaining: 1000, projected: null });
    expect(at('2026-11-25').remaining).toBe(900);
    expect(at('2026-11-26').remaining).toBe(799.9);
    // Today: actual and projection meet.
    expect(at('2026-11-27')).toEqual({ day: '2026-11-27', remaining: 700, projected: 700 });
    // $300 over 3 days: $100 a day, 700 left → out on the 7th day.
    expect(b.perDay).toBe(100);
    expect(at('2026-11-28').projected).toBe(600);
    expect(b.runsOutOn).toBe('2026-12-04');
    expect(at('2026-12-31').projected).toBe(0);
    expect(b.points.at(-1)!.day).toBe('2026-12-31');
    expect(b.points).toHaveLength(30 + 34);
  });

  it('has no projection to zero without spend, runs 30 days without an end date, and is null without a budget', () => {
    const idle = burnDown({ ...base, spent_total: 0, days: [], end_date: null })!;
    expect(idle.runsOutOn).toBeNull();
    expect(idle.until).toBe('2026-12-27');
    expect(idle.points.at(-1)!.projected).toBe(1000);
    expect(burnDown({ ...base, budget: null })).toBeNull();
  });
});
