import { describe, expect, it } from 'vitest';
import {
  describeRules,
  formatDays,
  formatOpenHours,
  formatSeconds,
  noOfferRules,
  OfferRulesInput,
  officeHours,
} from './offer-rules.ts';

describe('offer rules as a publisher reads them', () => {
  it('says nothing for an offer without rules', () => {
    expect(describeRules(noOfferRules)).toEqual([]);
  });

  it('reads every rule in a short line', () => {
    expect(
      describeRules({
        buffer_seconds: 90,
        duplicate_days: 1,
        daily_cap: 200,
        monthly_cap: 5000,
        publisher_daily_cap: null,
        publisher_monthly_cap: 400,
        allowed_states: ['CA', 'TX'],
        open_hours: { time_zone: 'America/New_York', ...officeHours },
      }),
    ).toEqual([
      { label: 'Billable after', text: '1 min 30 s (shorter calls do not pay)' },
      { label: 'Duplicates', text: 'a repeat caller within 1 day does not pay' },
      { label: 'Offer caps', text: '200 a day, 5,000 a month' },
      { label: 'Your caps', text: '400 a month' },
      { label: 'States', text: 'CA, TX' },
      { label: 'Open hours', text: 'Mon–Fri 09:00–17:00 (America/New_York)' },
    ]);
  });

  it('writes durations, days and windows across midnight plainly', () => {
    expect([formatSeconds(45), formatSeconds(120), formatSeconds(150)]).toEqual([
      '45 s',
      '2 min',
      '2 min 30 s',
    ]);
    expect(formatDays([1, 2, 3, 4, 5, 6, 7])).toBe('Every day');
    expect(formatDays([5, 1, 3])).toBe('Mon, Wed, Fri');
    expect(formatDays([1, 2, 3, 6, 7])).toBe('Mon–Wed, Sat, Sun');
    expect(formatOpenHours({ time_zone: 'UTC', days: [5], from: '20:00', to: '02:00' })).toBe(
      'Fri 20:00–02:00 (next day) (UTC)',
    );
    expect(formatOpenHours({ time_zone: 'UTC', days: [6, 7], from: '00:00', to: '00:00' })).toBe(
      'Sat, Sun all day (UTC)',
    );
    expect(formatOpenHours({ time_zone: 'UTC', days: [1], from: '18:00', to: '00:00' })).toBe(
      'Mon 18:00–00:00 (UTC)',
    );
  });
});

describe('rules input', () => {
  it('fills empty rules, sorts and de-duplicates states and days, canonicalises the zone', () => {
    expect(
      OfferRulesInput.parse({
        allowed_states: ['ny', 'CA', 'NY'],
        open_hours: { time_zone: 'europe/berlin', days: [3, 1, 3], from: '08:00', to: '12:00' },
      }),
    ).toEqual({
      ...noOfferRules,
      allowed_states: ['CA', 'NY'],
      open_hours: { time_zone: 'Europe/Berlin', days: [1, 3], from: '08:00', to: '12:00' },
    });
  });
});
