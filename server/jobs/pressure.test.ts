import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearPressure, notePressure, Pacer, PRESSURE_HOLD_MS, underPressure } from './pressure.ts';

// The mark is one per process, and a worker runs many test files (isolate: false): a file that
// posted calls before this one may have left it set.
beforeEach(() => clearPressure());
afterEach(() => clearPressure());

describe('the foreground pressure mark', () => {
  it('holds for PRESSURE_HOLD_MS after the last mark, then lifts', () => {
    expect(underPressure(1_000)).toBe(false);
    notePressure(1_000);
    expect(underPressure(1_000 + PRESSURE_HOLD_MS - 1)).toBe(true);
    notePressure(1_200);
    expect(underPressure(1_200 + PRESSURE_HOLD_MS - 1)).toBe(true);
    expect(underPressure(1_200 + PRESSURE_HOLD_MS)).toBe(false);
  });
});

describe('Pacer', () => {
  it('lets a burst through, then one token per 1/rate second, answering the wait', () => {
    const p = new Pacer(10, 2, 0);
    expect(p.take(1, 0)).toBe(0);
    expect(p.take(1, 0)).toBe(0);
    // Empty: the next token comes in 100 ms.
    expect(p.take(1, 0)).toBe(100);
    expect(p.take(1, 40)).toBe(60);
    expect(p.take(1, 100)).toBe(0);
    // Saved up no more than the burst, however long it waited.
    expect(p.take(2, 10_000)).toBe(0);
    expect(p.take(1, 10_000)).toBe(100);
  });

  it('sends a chain longer than the burst once the bucket is full, and makes the next wait for it', () => {
    const p = new Pacer(10, 2, 0);
    expect(p.take(5, 0)).toBe(0);
    // Five taken from two: three owed, then one more needed.
    expect(p.take(1, 0)).toBe(400);
    expect(p.take(1, 400)).toBe(0);
  });

  it('holds a rate over a long run: 50 a second for 10 seconds lets ~500 through', () => {
    const p = new Pacer(50, 5, 0);
    let sent = 0;
    for (let t = 0; t <= 10_000; t += 3) if (p.take(1, t) === 0) sent++;
    expect(sent).toBeGreaterThanOrEqual(500);
    expect(sent).toBeLessThanOrEqual(506);
  });
});
