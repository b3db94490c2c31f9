import { describe, expect, it } from 'vitest';
import { genericPreset } from '../../../contract/tracker-presets.ts';
import { parseTimestamp } from './formats.ts';
import { effectiveMapping, type ReadConfig, readCall } from './mapping.ts';

/** The mapping engine alone (issue 26): formats, tokens and the event rules, no database. */

const config = (over: Partial<ReadConfig> = {}): ReadConfig => ({
  tracker: 'generic',
  mapping: effectiveMapping('generic', {}),
  tokens: genericPreset.tokens,
  timeZone: null,
  callIdFields: [],
  secretParams: [],
  phoneCountry: 'US',
  ...over,
});

const read = (params: Record<string, unknown>, over: Partial<ReadConfig> = {}) => {
  const r = readCall({ call_id: 'C1', ...params }, config(over), new Date('2026-11-26T12:00:00Z'));
  if (!r.ok) throw new Error(r.message);
  return r.call;
};

describe('timestamps', () => {
  it.each([
    ['2026-11-20T10:00:00Z', null, '2026-11-20T10:00:00.000Z'],
    ['2023-12-11 11:49:32 -0500', null, '2023-12-11T16:49:32.000Z'],
    ['2023-12-11T11:49:32+05:30', null, '2023-12-11T06:19:32.000Z'],
    ['Mon, 16 Aug 2010 03:45:01 +0000', null, '2010-08-16T03:45:01.000Z'],
    ['1763900000', null, '2025-11-23T12:13:20.000Z'],
    ['1763900000123', null, '2025-11-23T12:13:20.123Z'],
    // Without an offset: the integration's zone, daylight saving included.
    ['2026-07-01 09:00:00', 'America/New_York', '2026-07-01T13:00:00.000Z'],
    ['2026-01-15 09:00', 'America/New_York', '2026-01-15T14:00:00.000Z'],
    ['04/13/2026 11:08:40 PM', 'America/Chicago', '2026-04-14T04:08:40.000Z'],
    ['04/13/2026 12:08:40 AM', null, '2026-04-13T00:08:40.000Z'],
  ])('%s in %s is %s', (v, zone, iso) => {
    expect(parseTimestamp(v, 'auto', zone)?.toISOString()).toBe(iso);
  });

  it('refuses what is not a time', () => {
    for (const v of [
      'yesterday',
      '2026-13-01 00:00:00',
      '13/45/2026 10:00',
      '04/13/2026 13:00 PM',
    ]) {
      expect(parseTimestamp(v, 'auto', null), v).toBeNull();
    }
  });
});

describe('money, durations and values', () => {
  it('reads money exactly, in dollars or cents', () => {
    expect(read({ revenue: '$1,234.56', payout: '1.005' })).toMatchObject({
      revenue: '1234.56',
      payout: '1.01',
    });
    const cents = effectiveMapping('generic', { payout: { names: ['p'], format: 'cents' } });
    expect(read({ p: '4550' }, { mapping: cents }).payout).toBe('45.50');
    expect(readCall({ call_id: 'x', payout: '-1' }, config()).ok).toBe(false);
  });

  it('reads durations in seconds, m:ss, h:mm:ss, minutes and milliseconds', () => {
    expect(read({ duration: '95.4' }).durationSeconds).toBe(95);
    expect(read({ duration: '1:35' }).durationSeconds).toBe(95);
    expect(read({ duration: '1:01:35' }).durationSeconds).toBe(3695);
    const minutes = effectiveMapping('generic', { duration: { names: ['d'], format: 'minutes' } });
    expect(read({ d: '2.5' }, { mapping: minutes }).durationSeconds).toBe(150);
    const ms = effectiveMapping('generic', { duration: { names: ['d'], format: 'milliseconds' } });
    expect(read({ d: '95400' }, { mapping: ms }).durationSeconds).toBe(95);
  });

  it('drops unreplaced tokens of every syntax and keeps nothing of them as tags', () => {
    const call = read({
      caller: '[Call:CallerId]',
      zip: '{{zip}}',
      state: '%STATE%',
      recording_url: '{recording}',
      sub1: '[tag:User:sub1]',
    });
    expect(call).toMatchObject({ caller: null, zip: null, state: null, recordingUrl: null });
    expect(call.tags).toEqual({});
  });

  it('redacts secrets kept as tags', () => {
    expect(read({ api_token: 'abc', auth: 'x', sub_id: '7' }).tags).toEqual({
      api_token: '[redacted]',
      auth: '[redacted]',
      sub_id: '7',
    });
  });
});

describe('events', () => {
  it('a completed call of 0 s never connected', () => {
    const call = read({ event: 'completed', duration: '0' });
    expect(call.event).toBe('error');
    expect(call.eventNote).toBe('completed after 0 s');
  });

  it('maps words (case and spaces ignored) and falls back to * ', () => {
    const mapping = effectiveMapping('generic', {
      event: { names: ['status'], map: { 'No Answer': 'not_connected', '*': 'connected' } },
    });
    expect(read({ status: 'no  answer' }, { mapping })).toMatchObject({
      event: 'error',
      eventNote: 'no  answer',
    });
    expect(read({ status: 'talking' }, { mapping }).event).toBe('connected');
  });

  it('refuses an event word nobody mapped, naming how to fix it', () => {
    const r = readCall({ call_id: 'x', event: 'ringing' }, config());
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/"ringing" is not an event we know: map it/);
  });
});
