import { describe, expect, it } from 'vitest';
import { addMonths, canSign, dueReminder, statusOf } from './signatures.policy.ts';

const DAY = 86_400_000;
const now = new Date('2026-06-15T12:00:00Z');
const signed = (daysLeft: number | null, remindedDays: number[] = []) => ({
  status: 'signed' as const,
  expiresAt: daysLeft === null ? null : new Date(now.getTime() + daysLeft * DAY),
  remindedDays,
});

describe('signature policy', () => {
  it('shows a signed document past its expiry as expired', () => {
    expect(statusOf(signed(1), now)).toBe('signed');
    expect(statusOf(signed(0), now)).toBe('expired');
    expect(statusOf(signed(null), now)).toBe('signed');
    expect(statusOf({ status: 'viewed', expiresAt: null }, now)).toBe('viewed');
  });

  it('lets a document be signed when unsigned, expired or within 30 days of expiry', () => {
    expect(canSign({ status: 'sent', expiresAt: null }, now)).toBe(true);
    expect(canSign({ status: 'superseded', expiresAt: null }, now)).toBe(false);
    expect(canSign(signed(null), now)).toBe(false);
    expect(canSign(signed(31), now)).toBe(false);
    expect(canSign(signed(30), now)).toBe(true);
    expect(canSign(signed(-5), now)).toBe(true);
  });

  it('answers the latest reminder window not reminded yet', () => {
    expect(dueReminder(signed(31), now)).toBeNull();
    expect(dueReminder(signed(30), now)).toBe(30);
    expect(dueReminder(signed(20, [30]), now)).toBeNull();
    expect(dueReminder(signed(7, [30]), now)).toBe(7);
    // Missed the 30-day one (server down): only the window it is in now.
    expect(dueReminder(signed(5), now)).toBe(7);
    expect(dueReminder(signed(0.5, [30, 7]), now)).toBe(1);
    expect(dueReminder(signed(0.5, [30, 7, 1]), now)).toBeNull();
    expect(dueReminder(signed(-1), now)).toBeNull();
    expect(dueReminder({ status: 'sent', expiresAt: null, remindedDays: [] }, now)).toBeNull();
  });

  it('adds calendar months, keeping the day or the month’s last', () => {
    expect(addMonths(new Date('2026-01-31T10:00:00Z'), 1).toISOString()).toBe(
      '2026-02-28T10:00:00.000Z',
    );
    expect(addMonths(new Date('2026-03-15T10:00:00Z'), 12).toISOString()).toBe(
      '2027-03-15T10:00:00.000Z',
    );
  });
});
