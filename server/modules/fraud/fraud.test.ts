import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fraudCallerHours,
  fraudConfig,
  fraudFlags,
  fraudPublisherHours,
  fraudRules,
  leads,
  mailOutbox,
  notifications,
  webhookEndpoints,
} from '../../db/schema.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';
import { newTracker, type TestTracker, type TrackerCall } from '../../test/tracker.ts';
import { evaluateCalls, sweepOldCounters } from './evaluate.ts';
import { fraudSettled } from './index.ts';

/**
 * Fraud (issue 32 items 3–5) through the postback endpoint as a tracker sends calls: the
 * blocklist (numbers, prefixes, expiry), each rule at its threshold with the figures it shows,
 * hold vs flag, the queue's bulk confirm and clear, a lead's flags, a publisher's score, the
 * velocity alert and the `fraud.flagged` webhook event.
 */

let t: AdminTestContext;
let tracker: TestTracker;
const callId = () => tracker.callId();
let numberSeq = 1000;
/** A fresh valid US number (+1 212 555 xxxx). */
const freshNumber = () => `+1212555${String(numberSeq++).padStart(4, '0')}`;

type Call = TrackerCall;
const post = async (call: Call) => {
  const res = await tracker.post(call);
  expect(res.statusCode, res.body).toBe(200);
  await fraudSettled(t.db);
  return res.json() as { id: string; status: string };
};
const lead = async (id: string) => (await t.db.select().from(leads).where(eq(leads.id, id)))[0]!;
/**
 * The whole queue's total of each status, as the screen reads it (kept by drizzle/0059's
 * triggers), against a count of the flags themselves.
 */
async function expectQueueTotalsCounted() {
  for (const status of ['open', 'cleared', 'confirmed'] as const) {
    const res = await t.call('GET', '/fraud-flags', { query: { status, page_size: '1' } });
    const [row] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(fraudFlags)
      .where(eq(fraudFlags.status, status));
    expect({ status, total: res.json().total }).toEqual({ status, total: row!.n });
  }
}

const flagsOf = (leadId: string) =>
  t.db.select().from(fraudFlags).where(eq(fraudFlags.leadId, leadId));
const completed = (pub: TestUser, offerId: string, over: Call = {}) =>
  post(tracker.completed(pub.id, offerId, { caller: freshNumber(), ...over }));
const setRule = async (rule: string, body: Record<string, unknown>) => {
  const res = await t.call('PUT', `/fraud-rules/${rule}`, { body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
/** Only `rule` on (each test looks at one rule's flags). */
const only = async (rule: string, body: Record<string, unknown> = {}) => {
  for (const r of [
    'repeat_caller',
    'publisher_velocity',
    'short_calls',
    'caller_anomaly',
    'publisher_rejects',
  ]) {
    await setRule(r, r === rule ? { enabled: true, action: 'flag', ...body } : { enabled: false });
  }
};

beforeAll(async () => {
  t = await setupAdminTest();
  tracker = await newTracker(t, 'Fraud tracker');
});
afterAll(() => t.close());

describe('caller blocklist', () => {
  it('blocks a number in any format and a prefix; a blocked call is recorded, rejected with the reason, and stays so', async () => {
    await only('caller_anomaly', { enabled: false });
    const pub = await buildPublisher(t.db);
    const offer = await buildOffer(t.db);
    const made = await t.call('POST', '/blocked-callers', {
      body: { number: '(212) 555-0001', reason: 'Robocaller' },
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ kind: 'number', value: '+12125550001', active: true });
    const again = await t.call('POST', '/blocked-callers', {
      body: { number: '+1 212 555 0001', reason: 'twice' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(
      '+12125550001 is already on the blocklist: delete that entry first to change it.',
    );
    const bad = await t.call('POST', '/blocked-callers', {
      body: { number: 'anonymous', reason: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    const both = await t.call('POST', '/blocked-callers', {
      body: { number: '+12125550001', prefix: '+1900', reason: 'x' },
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().error.message).toContain('Give either a number or a prefix');
    expect(
      (
        await t.call('POST', '/blocked-callers', {
          body: { prefix: '1900', reason: 'Premium rate' },
        })
      ).statusCode,
    ).toBe(201);

    // The number: rejected at once, with the entry's reason, whatever the tracker says.
    const blocked = await completed(pub, offer.id, { caller: '2125550001' });
    expect(blocked.status).toBe('rejected');
    expect(await lead(blocked.id)).toMatchObject({
      status: 'rejected',
      ruleOutcome: 'blocked',
      statusReason: 'Blocked caller (number +12125550001): Robocaller',
    });
    // The prefix; a call that starts pending stays rejected when it completes without a caller.
    const id = callId();
    const first = await post(
      tracker.started(pub.id, offer.id, { call_id: id, caller: '+19005550123' }),
    );
    expect(first.status).toBe('rejected');
    const later = await post(tracker.completed(pub.id, offer.id, { call_id: id, duration: 300 }));
    expect(later.status).toBe('rejected');
    expect((await lead(later.id)).statusReason).toBe('Blocked caller (prefix +1900): Premium rate');
    // Another number is not blocked.
    expect((await completed(pub, offer.id)).status).toBe('approved');

    const list = await t.call('GET', '/blocked-callers', { query: { q: '1900' } });
    expect(list.json().items.map((b: { value: string }) => b.value)).toEqual(['+1900']);
    const del = await t.call('DELETE', `/blocked-callers/${list.json().items[0].id}`);
    expect(del.statusCode).toBe(204);
    expect((await completed(pub, offer.id, { caller: '+19005550124' })).status).toBe('approved');
  });

  it('an expired entry no longer blocks; a CSV adds all rows or none', async () => {
    const pub = await buildPublisher(t.db);
    const offer = await buildOffer(t.db);
    const past = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + 3_600_000).toISOString();
    await t.call('POST', '/blocked-callers', {
      body: { number: '+12125550002', reason: 'old', expires_at: past },
    });
    await t.call('POST', '/blocked-callers', {
      body: { number: '+12125550003', reason: 'new', expires_at: future },
    });
    expect((await completed(pub, offer.id, { caller: '+12125550002' })).status).toBe('approved');
    expect((await completed(pub, offer.id, { caller: '+12125550003' })).status).toBe('rejected');

    const upload = (csv: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/blocked-callers/import',
        headers: {
          authorization: `Bearer ${t.adminToken}`,
          'content-type': 'multipart/form-data; boundary=XB',
        },
        payload: `--XB\r\nContent-Disposition: form-data; name="file"; filename="b.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--XB--\r\n`,
      });
    const wrong = await upload('number,prefix,reason\n+12125550004,,spam\nnope,,spam\n,+1976,\n');
    expect(wrong.json()).toEqual({
      created: 0,
      errors: [
        {
          line: 3,
          message:
            '"nope" is not a valid phone number (read as a US number when it has no country code).',
        },
        { line: 4, message: 'Say why (a reason is required).' },
      ],
    });
    const ok = await upload(
      'number,prefix,reason,expires_at\n+12125550004,,spam,\n,+1976,premium,2099-01-01\n',
    );
    expect(ok.json()).toEqual({ created: 2, errors: [] });
    expect((await completed(pub, offer.id, { caller: '+19765550100' })).status).toBe('rejected');
  });
});

describe('rules at their thresholds, with their figures', () => {
  it('repeat caller: the 4th call of one number in 24 h across offers is flagged, not the 3rd', async () => {
    await only('repeat_caller', { params: { max_calls: 3, hours: 24 } });
    const pub = await buildPublisher(t.db);
    const caller = freshNumber();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const offer = await buildOffer(t.db);
      ids.push((await completed(pub, offer.id, { caller })).id);
    }
    expect(await flagsOf(ids[2]!)).toEqual([]);
    const [flag] = await flagsOf(ids[3]!);
    expect(flag).toMatchObject({
      rule: 'repeat_caller',
      action: 'flag',
      status: 'open',
      reason: `4 calls from ${caller} in 24 h across offers: more than 3`,
      figures: { calls: 4, caller, hours: 24, max_calls: 3 },
    });
    // A flag alone changes nothing: the call stays approved.
    expect((await lead(ids[3]!)).status).toBe('approved');
  });

  it('publisher velocity: this hour above K × the usual for the weekday and hour, with a minimum; admins hear once', async () => {
    await only('publisher_velocity', { params: { multiplier: 2, weeks: 4, min_calls: 3 } });
    const pub = await buildPublisher(t.db, { name: 'Spiky Sam' });
    const offer = await buildOffer(t.db);
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    // Usually 1 call at this weekday and hour (4 calls over the last 4 weeks).
    await t.db.insert(fraudPublisherHours).values(
      [1, 2, 3, 4].map((w) => ({
        publisherId: pub.id,
        hour: new Date(hour.getTime() - w * 7 * 86_400_000),
        calls: 1,
      })),
    );
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await completed(pub, offer.id)).id);
    expect(await flagsOf(ids[1]!)).toEqual([]); // 2 calls: not above 2 × 1
    const [flag] = await flagsOf(ids[2]!);
    expect(flag?.figures).toMatchObject({
      calls_this_hour: 3,
      usual: 1,
      multiplier: 2,
      min_calls: 3,
    });
    expect(flag?.reason).toMatch(
      /^3 calls from this publisher in the hour from .* UTC, usually 1\.0 at this weekday and hour \(last 4 weeks\): over 2× the usual and at least 3$/,
    );
    expect((await flagsOf(ids[3]!))[0]?.figures).toMatchObject({ calls_this_hour: 4 });
    const alerts = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, t.admin.id), eq(notifications.kind, 'fraud_velocity')));
    expect(alerts).toHaveLength(1);
    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, t.admin.email));
    expect(mails.filter((m) => m.text.includes('3 calls from this publisher'))).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      title: 'Call volume spike: Spiky Sam',
      link: `/admin/publishers/${pub.id}`,
    });
  });

  it('short-call clustering: a publisher share of calls just over the buffer above the threshold', async () => {
    await only('short_calls', {
      params: { seconds_above_buffer: 5, share_percent: 50, min_calls: 4, hours: 24 },
    });
    const pub = await buildPublisher(t.db);
    const offer = await buildOffer(t.db, { bufferSeconds: 60 });
    const ids: string[] = [];
    for (const duration of [120, 62, 63, 65])
      ids.push((await completed(pub, offer.id, { duration })).id);
    expect(await flagsOf(ids[2]!)).toEqual([]); // 3 judged: under the minimum of 4
    const [flag] = await flagsOf(ids[3]!);
    expect(flag).toMatchObject({
      rule: 'short_calls',
      reason:
        "3 of this publisher's 4 judged calls in 24 h (75%) ended within 5 s over their buffer: above 50%; this call 65 s on a 60 s buffer",
      figures: {
        near_buffer: 3,
        judged: 4,
        share_percent: 75,
        threshold_percent: 50,
        duration_seconds: 65,
        buffer_seconds: 60,
      },
    });
    // 66 s is not within 5 s over the buffer: no flag.
    expect(await flagsOf((await completed(pub, offer.id, { duration: 66 })).id)).toEqual([]);
  });

  it('caller anomalies: an invalid number, and a caller equal to the tracking number', async () => {
    await only('caller_anomaly');
    const pub = await buildPublisher(t.db);
    const offer = await buildOffer(t.db);
    const invalid = await completed(pub, offer.id, { caller: '+15550102030' });
    expect((await flagsOf(invalid.id))[0]).toMatchObject({
      rule: 'caller_anomaly',
      reason:
        'Caller +15550102030 is not a valid or allocated phone number (libphonenumber, read as a US number without a country code)',
      figures: { kind: 'invalid_number', caller: '+15550102030' },
    });
    const same = await completed(pub, offer.id, {
      caller: '+12025550143',
      tracking_number: '(202) 555-0143',
    });
    expect((await flagsOf(same.id))[0]).toMatchObject({
      reason: 'Caller +12025550143 is the tracking number the call came in on',
      figures: { kind: 'caller_is_tracking_number' },
    });
    expect(await flagsOf((await completed(pub, offer.id)).id)).toEqual([]);
  });

  it("a publisher's share of duplicates or rejected calls above the threshold", async () => {
    await only('publisher_rejects', { params: { share_percent: 50, min_calls: 4, hours: 24 } });
    const pub = await buildPublisher(t.db);
    const offer = await buildOffer(t.db, { bufferSeconds: 60 });
    for (let i = 0; i < 2; i++) await completed(pub, offer.id, { duration: 10 });
    const third = await completed(pub, offer.id);
    expect(await flagsOf(third.id)).toEqual([]); // 3 judged: under the minimum
    await completed(pub, offer.id, { duration: 10 });
    const fifth = await completed(pub, offer.id);
    expect((await flagsOf(fifth.id))[0]).toMatchObject({
      rule: 'publisher_rejects',
      reason:
        "3 of this publisher's 5 judged calls in 24 h (60%) were duplicates or rejected: above 50%",
      figures: { rejected: 3, judged: 5, share_percent: 60, threshold_percent: 50 },
    });
  });
});

describe('one batch', () => {
  it('flags the calls of one evaluation batch as it flags the same calls one by one', async () => {
    for (const [rule, params] of Object.entries({
      repeat_caller: { max_calls: 3, hours: 24 },
      publisher_velocity: { multiplier: 2, weeks: 4, min_calls: 3 },
      short_calls: { seconds_above_buffer: 5, share_percent: 50, min_calls: 4, hours: 24 },
      publisher_rejects: { share_percent: 20, min_calls: 4, hours: 24 },
      caller_anomaly: {},
    })) {
      await setRule(rule, { enabled: true, action: 'flag', params });
    }
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const durations = [62, 63, 10, 65, 120, 64, 20];
    /** A publisher usually at 1 call this weekday and hour, and its calls written, not judged by the rules yet. */
    const calls = async (repeat: string) => {
      const pub = await buildPublisher(t.db);
      const offer = await buildOffer(t.db, { bufferSeconds: 60 });
      await t.db.insert(fraudPublisherHours).values(
        [1, 2, 3, 4].map((w) => ({
          publisherId: pub.id,
          hour: new Date(hour - w * 7 * 86_400_000),
          calls: 1,
        })),
      );
      const written = [];
      for (const [i, d] of durations.entries()) {
        // The first five from one caller; the last an invalid number.
        const caller = i < 5 ? repeat : i === 5 ? freshNumber() : '+15550102030';
        const [row] = await t.db
          .insert(leads)
          .values({
            publisherId: pub.id,
            offerId: offer.id,
            payout: '10.00',
            status: d >= 60 ? 'approved' : 'rejected',
            judgedAt: new Date(),
            durationSeconds: d,
            caller,
            timestamp: new Date(hour + 60_000 * (i + 1)),
          })
          .returning();
        written.push({ id: row!.id, caller, tracking: null });
      }
      return { pub, written };
    };
    const opts = { publicUrl: 'http://portal.test' };
    const shape = async (ids: string[], caller: string) => {
      const out = [];
      for (const id of ids) {
        const flags = await flagsOf(id);
        out.push(
          flags
            .map((f) => `${f.rule} ${JSON.stringify(f.figures).replaceAll(caller, 'CALLER')}`)
            .sort(),
        );
      }
      return out;
    };

    const oneCaller = freshNumber();
    const one = await calls(oneCaller);
    let oneAlerts = 0;
    for (const c of one.written) {
      const rows = await evaluateCalls(t.db, [c], opts);
      oneAlerts += rows.filter((r) => r.out_alert).length;
    }
    const batchCaller = freshNumber();
    const batch = await calls(batchCaller);
    // One call twice in the batch (two events of one call) counts once.
    const rows = await evaluateCalls(t.db, [...batch.written, batch.written[2]!], opts);

    const byOne = await shape(
      one.written.map((c) => c.id),
      oneCaller,
    );
    const byBatch = await shape(
      batch.written.map((c) => c.id),
      batchCaller,
    );
    expect(byBatch).toEqual(byOne);
    // What the rules saw, so the comparison is not between two empty lists.
    expect(byOne.map((f) => f.map((x) => x.split(' ')[0]))).toEqual([
      [],
      [],
      ['publisher_velocity'],
      ['publisher_rejects', 'publisher_velocity', 'repeat_caller', 'short_calls'],
      ['publisher_velocity', 'repeat_caller'],
      ['publisher_velocity', 'short_calls'],
      ['caller_anomaly', 'publisher_velocity'],
    ]);
    expect(byBatch[4]).toContain(
      'repeat_caller {"calls":5,"hours":24,"caller":"CALLER","max_calls":3}',
    );
    expect(rows.filter((r) => r.out_alert)).toHaveLength(1);
    expect(oneAlerts).toBe(1);
    const [counter] = await t.db
      .select()
      .from(fraudPublisherHours)
      .where(
        and(
          eq(fraudPublisherHours.publisherId, batch.pub.id),
          eq(fraudPublisherHours.hour, new Date(hour)),
        ),
      );
    expect(counter).toMatchObject({ calls: 7, judged: 7, nearBuffer: 4, rejected: 2 });
  });
});

describe('hold vs flag, and the queue', () => {
  it('a hold keeps the call pending for review (at once, or when judged later); flag only leaves it approved', async () => {
    await only('repeat_caller', { action: 'hold', params: { max_calls: 1, hours: 24 } });
    const pub = await buildPublisher(t.db);
    const offer = await buildOffer(t.db);
    const caller = freshNumber();
    await completed(pub, offer.id, { caller });
    const held = await completed(pub, offer.id, { caller });
    const row = await lead(held.id);
    expect(row.status).toBe('pending');
    expect(row.statusReason).toBe(
      `Held for review: 2 calls from ${caller} in 24 h across offers: more than 1`,
    );
    // Flagged at its first event, held when it completes.
    const id = callId();
    await post(tracker.started(pub.id, offer.id, { call_id: id, caller }));
    const done = await post(tracker.completed(pub.id, offer.id, { call_id: id }));
    expect(done.status).toBe('pending');
    expect((await lead(done.id)).statusReason).toMatch(/^Held for review: 3 calls from/);

    await setRule('repeat_caller', { action: 'flag' });
    const flagged = await completed(pub, offer.id, { caller });
    expect((await flagsOf(flagged.id))[0]?.action).toBe('flag');
    expect((await lead(flagged.id)).status).toBe('approved');

    // The queue: newest first, keyset pages; clear releases the held call, confirm rejects.
    await expectQueueTotalsCounted();
    const page1 = await t.call('GET', '/fraud-flags', {
      query: { publisher_id: pub.id, page_size: '2' },
    });
    expect(page1.statusCode, page1.body).toBe(200);
    expect(page1.json().items.map((f: { lead_id: string }) => f.lead_id)).toEqual([
      flagged.id,
      done.id,
    ]);
    const page2 = await t.call('GET', '/fraud-flags', {
      query: { publisher_id: pub.id, page_size: '2', after: page1.json().next_cursor },
    });
    expect(page2.json().items.map((f: { lead_id: string }) => f.lead_id)).toEqual([held.id]);

    const heldFlag = (await flagsOf(held.id))[0]!;
    const doneFlag = (await flagsOf(done.id))[0]!;
    const cleared = await t.call('POST', '/fraud-flags/clear', {
      body: { ids: [heldFlag.id], note: 'Known caller' },
    });
    expect(cleared.json()).toEqual({ changed: 1 });
    expect(await lead(held.id)).toMatchObject({
      status: 'approved',
      statusReason: "Payable: the call meets the offer's rules",
    });
    const confirmed = await t.call('POST', '/fraud-flags/confirm', {
      body: { ids: [doneFlag.id, (await flagsOf(flagged.id))[0]!.id], reason: 'Robocalls' },
    });
    expect(confirmed.json()).toEqual({ changed: 2 });
    expect(await lead(done.id)).toMatchObject({
      status: 'rejected',
      statusReason: 'Fraud confirmed: Robocalls',
    });
    expect((await lead(done.id)).statusOverriddenAt).not.toBeNull();
    await expectQueueTotalsCounted();
    // Closed flags leave the open queue; confirming them again changes nothing.
    const open = await t.call('GET', '/fraud-flags', { query: { publisher_id: pub.id } });
    expect(open.json().items).toEqual([]);
    expect(
      (
        await t.call('POST', '/fraud-flags/confirm', { body: { ids: [doneFlag.id], reason: 'x' } })
      ).json(),
    ).toEqual({ changed: 0 });
    const noReason = await t.call('POST', '/fraud-flags/confirm', {
      body: { ids: [doneFlag.id], reason: ' ' },
    });
    expect(noReason.statusCode).toBe(400);

    // The lead's Fraud card and the publisher's score.
    const card = await t.call('GET', `/leads/${done.id}/fraud`);
    expect(card.json()).toMatchObject({
      caller,
      blocked: null,
      flags: [{ rule: 'repeat_caller', status: 'confirmed' }],
    });
    const score = await t.call('GET', `/publishers/${pub.id}/fraud-score`);
    expect(score.json().windows[0]).toMatchObject({
      days: 7,
      calls: 4,
      flagged_calls: 3,
      confirmed: 2,
      open: 0,
      score: 100,
    });
    // A lead deleted takes its flags with it, and out of the totals.
    await t.db.delete(leads).where(eq(leads.id, held.id));
    await expectQueueTotalsCounted();
  });

  it('a new flag is a fraud.flagged webhook event', async () => {
    await t.db.insert(webhookEndpoints).values({
      url: 'https://hooks.example.com/fraud',
      events: ['fraud.flagged'],
      secret: 'whsec_ZnJhdWQ=',
    });
    await only('caller_anomaly');
    const pub = await buildPublisher(t.db);
    const offer = await buildOffer(t.db);
    const call = await completed(pub, offer.id, { caller: '+15550102031' });
    const [flag] = await flagsOf(call.id);
    // The event in the outbox, or already a delivery (the webhook body's `data`).
    const events = (await t.db.execute(
      sql`select data from outbound_events where type = 'fraud.flagged'
          union all select body::jsonb -> 'data' from outbound_deliveries
           where event_type = 'fraud.flagged'`,
    )) as unknown as { rows: { data: Record<string, unknown> }[] };
    expect(events.rows.map((r) => r.data)).toContainEqual({
      flag_id: flag!.id,
      lead_id: call.id,
      publisher_id: pub.id,
      rule: 'caller_anomaly',
      action: 'flag',
      reason: flag!.reason,
      figures: flag!.figures,
      created_at: flag!.createdAt.toISOString(),
    });
  });

  it('no endpoint listening for fraud.flagged: the flags make no event', async () => {
    await t.db
      .update(webhookEndpoints)
      .set({ enabled: false })
      .where(sql`'fraud.flagged' = any(${webhookEndpoints.events})`);
    await only('caller_anomaly');
    const pub = await buildPublisher(t.db);
    const offer = await buildOffer(t.db);
    // An event written is soon fanned out and deleted: the outbox's sequence keeps its trace.
    const lastSeq = async () =>
      (
        (await t.db.execute(
          sql`select last_value::text as v from outbound_events_seq_seq`,
        )) as unknown as { rows: { v: string }[] }
      ).rows[0]!.v;
    const before = await lastSeq();
    const call = await completed(pub, offer.id, { caller: '+15550102032' });
    expect(await flagsOf(call.id)).toHaveLength(1);
    expect(await lastSeq()).toBe(before);
  });

  it('rules are settings: invalid thresholds answer a sentence', async () => {
    const res = await t.call('PUT', '/fraud-rules/repeat_caller', {
      body: { params: { max_calls: 0 } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Calls must be at least 1.');
    const rules = await t.call('GET', '/fraud-rules');
    expect(rules.json().rules.map((r: { rule: string }) => r.rule)).toEqual([
      'repeat_caller',
      'publisher_velocity',
      'short_calls',
      'caller_anomaly',
      'publisher_rejects',
    ]);
  });

  it('old counters are swept once no rule window reads them', async () => {
    const pub = await buildPublisher(t.db);
    const old = new Date(Date.now() - 100 * 86_400_000);
    const recent = new Date(Date.now() - 20 * 86_400_000);
    await t.db.insert(fraudPublisherHours).values([
      { publisherId: pub.id, hour: old, calls: 1 },
      { publisherId: pub.id, hour: recent, calls: 1 },
    ]);
    await t.db.insert(fraudCallerHours).values([
      { caller: '+12125559999', hour: recent, calls: 1 },
      { caller: '+12125559999', hour: new Date(Date.now() - 40 * 86_400_000), calls: 1 },
    ]);
    await sweepOldCounters(t.db);
    const pubHours = await t.db
      .select()
      .from(fraudPublisherHours)
      .where(eq(fraudPublisherHours.publisherId, pub.id));
    expect(pubHours.map((h) => h.hour.getTime())).toEqual([recent.getTime()]);
    const callerHours = await t.db
      .select()
      .from(fraudCallerHours)
      .where(eq(fraudCallerHours.caller, '+12125559999'));
    expect(callerHours).toHaveLength(1);
  });

  it("another instance's rule change is read within a second (the version check)", async () => {
    await only('caller_anomaly', { enabled: false });
    const pub = await buildPublisher(t.db);
    const offer = await buildOffer(t.db);
    await completed(pub, offer.id); // this instance has read the rules (all off)
    // As another instance would: the row and the version, not through this instance's API.
    await t.db
      .update(fraudRules)
      .set({ enabled: true, params: { max_calls: 1, hours: 24 } })
      .where(eq(fraudRules.rule, 'repeat_caller'));
    await t.db.update(fraudConfig).set({ version: sql`${fraudConfig.version} + 1` });
    await new Promise((r) => setTimeout(r, 1100));
    const caller = freshNumber();
    await completed(pub, offer.id, { caller });
    const second = await completed(pub, offer.id, { caller });
    expect((await flagsOf(second.id))[0]?.rule).toBe('repeat_caller');
  });
});
