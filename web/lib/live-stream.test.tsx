import type { LiveLead } from '@contract/live.ts';
import { describe, expect, it } from 'vitest';
import { mergeCalls, parseSse } from './live-stream.ts';

const call = (id: string, at: string, over: Partial<LiveLead> = {}): LiveLead => ({
  id,
  kind: 'created',
  timestamp: at,
  status: 'pending',
  last_event: 'incoming',
  in_progress: true,
  duration_seconds: null,
  caller: '+15555550123',
  offer_id: 'o',
  offer_title: 'Offer',
  publisher_id: 'p',
  publisher_name: null,
  payout: 10,
  revenue: null,
  ...over,
});

describe('parseSse', () => {
  it('reads whole messages, keeps the unfinished rest, skips comments', () => {
    const got: { event: string; id?: string; data: string }[] = [];
    const rest = parseSse(
      'retry: 2000\n\n: heartbeat\n\nid: 7\nevent: leads\ndata: {"leads":[]}\n\nevent: coun',
      (m) => got.push(m),
    );
    expect(got).toEqual([{ event: 'leads', id: '7', data: '{"leads":[]}' }]);
    expect(rest).toBe('event: coun');
    parseSse(`${rest}ters\r\ndata: {}\r\n\r\n`, (m) => got.push(m));
    expect(got[1]).toEqual({ event: 'counters', id: undefined, data: '{}' });
  });
});

describe('mergeCalls', () => {
  it('updates a call in place, puts a new one on top, keeps 100', () => {
    const old = Array.from({ length: 100 }, (_, i) =>
      call(`c${i}`, new Date(Date.UTC(2026, 0, 1, 0, 0, 100 - i)).toISOString()),
    );
    const merged = mergeCalls(old, [
      call('c5', old[5]!.timestamp, {
        last_event: 'completed',
        in_progress: false,
        kind: 'changed',
      }),
      call('new', '2026-01-02T00:00:00.000Z'),
    ]);
    expect(merged).toHaveLength(100);
    expect(merged[0]!.id).toBe('new');
    expect(merged[6]).toMatchObject({ id: 'c5', last_event: 'completed', kind: 'changed' });
    expect(merged.map((c) => c.id)).not.toContain('c99');
  });
});
