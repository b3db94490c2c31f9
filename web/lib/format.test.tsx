import { describe, expect, it } from 'vitest';
import { parseTypedDay } from './format.ts';

describe('parseTypedDay (one date format in every field, issue 34)', () => {
  it('reads the app format and the US habit as the same YYYY-MM-DD day', () => {
    expect(parseTypedDay('2026-09-15')).toBe('2026-09-15');
    expect(parseTypedDay('9/15/2026')).toBe('2026-09-15');
    expect(parseTypedDay(' 09/03/2026 ')).toBe('2026-09-03');
  });
  it('refuses what names no real day', () => {
    expect(parseTypedDay('2026-02-30')).toBeNull();
    expect(parseTypedDay('15/9/2026')).toBeNull();
    expect(parseTypedDay('soon')).toBeNull();
  });
});
