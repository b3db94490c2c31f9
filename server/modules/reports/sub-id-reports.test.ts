import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminReport } from '../../../contract/reports.ts';
import { leads, settings } from '../../db/schema.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { buildOffer, buildPublisher } from '../../test/factories.ts';

/**
 * Issue 34 item 4: reports by a tracker tag the operator marks as a sub-id (sub1–sub5), read from
 * the tags the leads already store.
 */

let t: AdminTestContext;

beforeAll(async () => {
  t = await setupAdminTest();
  await t.db.update(settings).set({ timezone: 'UTC' });
  const pub = await buildPublisher(t.db);
  const offer = await buildOffer(t.db);
  const lead = (day: string, tags: Record<string, unknown> | null, over = {}) => ({
    publisherId: pub.id,
    offerId: offer.id,
    timestamp: new Date(`${day}T12:00:00Z`),
    payout: '10.00',
    status: 'approved' as const,
    durationSeconds: 120,
    tags,
    ...over,
  });
  await t.db.insert(leads).values([
    lead('2026-05-01', { utm_source: 'google', click: 'a1' }),
    lead('2026-05-01', { utm_source: 'google' }),
    lead('2026-05-02', { utm_source: 'Facebook' }, { status: 'rejected' }),
    lead('2026-05-03', { other: 'x' }),
    lead('2026-05-03', null),
    // The day before the range: only in the previous period.
    lead('2026-04-30', { utm_source: 'google' }),
  ]);
});
afterAll(() => t.close());

const report = (query: Record<string, string>) =>
  t.call('GET', '/reports', {
    query: { range: 'custom', from: '2026-05-01', to: '2026-05-03', ...query },
  });

describe('report settings (sub-ids)', () => {
  it('marks tracker tags as sub-ids, five places, audited; refuses a bad or repeated tag', async () => {
    const empty = await t.call('GET', '/report-settings');
    expect(empty.json()).toEqual({ sub_id_tags: ['', '', '', '', ''] });
    const saved = await t.call('PUT', '/report-settings', {
      body: { sub_id_tags: ['utm_source', '', 'click'] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ sub_id_tags: ['utm_source', '', 'click', '', ''] });
    const bad = await t.call('PUT', '/report-settings', { body: { sub_id_tags: ['has space'] } });
    expect(bad.statusCode).toBe(400);
    const twice = await t.call('PUT', '/report-settings', { body: { sub_id_tags: ['a', 'a'] } });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error.message).toBe('Each tag can be one sub-id only.');
    const six = await t.call('PUT', '/report-settings', {
      body: { sub_id_tags: ['a', 'b', 'c', 'd', 'e', 'f'] },
    });
    expect(six.statusCode).toBe(400);
    expect((await t.call('GET', '/report-settings')).json().sub_id_tags[0]).toBe('utm_source');
  });
});

describe('GET /admin/reports grouped by a sub-id', () => {
  it('groups the leads by the marked tag, calls without it under (none), compared as any group', async () => {
    const res = await report({ group: 'sub1', compare: 'true', sort: 'label', order: 'asc' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as AdminReport;
    expect(body.rows.map((r) => [r.label, r.figures.calls, r.figures.payable_calls])).toEqual([
      ['(none)', 2, 2],
      ['Facebook', 1, 0],
      ['google', 2, 2],
    ]);
    expect(body.rows.find((r) => r.key === 'google')!.figures.payout).toBe(20);
    expect(body.rows.find((r) => r.key === 'google')!.previous_figures!.calls).toBe(1);
    expect(body.totals.calls).toBe(5);
    // By a figure, the biggest first; a second read answers the same from the kept blocks.
    const byCalls = (await report({ group: 'sub3' })).json() as AdminReport;
    expect(byCalls.rows.map((r) => [r.label, r.figures.calls])).toEqual([
      ['(none)', 4],
      ['a1', 1],
    ]);
    expect(((await report({ group: 'sub3' })).json() as AdminReport).rows).toEqual(byCalls.rows);
  });

  it('says which sub-id is not set instead of an empty report', async () => {
    const res = await report({ group: 'sub2' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(
      'Sub 2 is not set: mark a tracker tag as sub2 in Settings → Sub-ids in reports.',
    );
  });

  it('exports the sub-id report as CSV under the sub-id heading, without a zone', async () => {
    const csv = await t.call('GET', '/reports.csv', {
      query: {
        range: 'custom',
        from: '2026-05-01',
        to: '2026-05-03',
        group: 'sub1',
        sort: 'label',
        order: 'asc',
      },
    });
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]!.split(',')[0]).toBe('Sub 1');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 2))).toEqual([
      ['(none)', '2'],
      ['Facebook', '1'],
      ['google', '2'],
      ['Total', '5'],
    ]);
  });
});
