import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, leads, offerApplications, offerScriptVersions } from '../../db/schema.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { buildPublisher, type TestUser } from '../../test/factories.ts';
import { mailsTo } from '../../test/gotrue.ts';
import { newTracker, type TestTracker } from '../../test/tracker.ts';
import { lineDiff } from './script-diff.ts';

/**
 * Offer script versions (issue 33, item 4): a version per edit, the publisher's diff and
 * acknowledgement, hold versus flag on calls after the days to acknowledge, the version on the
 * lead, and who may acknowledge what.
 */

let t: AdminTestContext;
let pub: TestUser;
let pubToken: string;
let tracker: TestTracker;
let seq = 0;

const asPublisher = (
  method: 'GET' | 'POST',
  path: string,
  opts: { token?: string; body?: unknown } = {},
) =>
  t.app.inject({
    method,
    url: `/api/v1/publisher${path}`,
    headers: { authorization: `Bearer ${opts.token ?? pubToken}` },
    ...(opts.body !== undefined && { payload: opts.body as object }),
  });

async function createOffer(body: Record<string, unknown>) {
  const res = await t.call('POST', '/offers', {
    body: { title: `Script offer ${seq++}`, vertical: 'Insurance', payout: 20, ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const approve = (offerId: string, publisherId: string, status = 'approved' as const) =>
  t.db.insert(offerApplications).values({ offerId, publisherId, status });

const setScript = async (offerId: string, text: string | null) => {
  const res = await t.call('PATCH', `/offers/${offerId}`, { body: { script_instructions: text } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/** One completed, payable call of `publisherId` to the offer; answers the answer and its lead. */
const call = (offerId: string, publisherId = pub.id) =>
  tracker.send({
    call_id: tracker.callId(),
    event: 'completed',
    publisher: publisherId,
    offer: offerId,
  });

/** Moves the clock: the offer's current version was published `days` ago. */
const publishedDaysAgo = (offerId: string, days: number) =>
  t.db
    .update(offerScriptVersions)
    .set({ createdAt: sql`now() - make_interval(days => ${days})` })
    .where(eq(offerScriptVersions.offerId, offerId));

beforeAll(async () => {
  t = await setupAdminTest();
  pub = await buildPublisher(t.db, { name: 'Script Sam' });
  pubToken = await t.tokenOf(pub);
  tracker = await newTracker(t, 'Script tracker');
});
afterAll(() => t.close());

describe('line diff', () => {
  it('keeps, adds and removes whole lines, whatever the line endings', () => {
    expect(lineDiff('Hello\r\nAsk ZIP\nBye', 'Hello\nAsk state\nBye\n')).toEqual([
      { kind: 'same', text: 'Hello' },
      { kind: 'removed', text: 'Ask ZIP' },
      { kind: 'added', text: 'Ask state' },
      { kind: 'same', text: 'Bye' },
    ]);
    expect(lineDiff('', 'One')).toEqual([{ kind: 'added', text: 'One' }]);
    expect(lineDiff('Same', 'Same')).toEqual([{ kind: 'same', text: 'Same' }]);
  });
});

describe('versions on edit', () => {
  it('makes a version per change of the text, with who and when, in the audit log', async () => {
    const offer = await createOffer({ script_instructions: 'Greet\nAsk ZIP' });
    expect(offer.script_version).toBe(1);
    expect(offer).toMatchObject({ script_ack_mode: 'flag', script_ack_days: 7 });
    // The same text, or another field: no new version.
    expect((await setScript(offer.id, 'Greet\nAsk ZIP')).script_version).toBe(1);
    const titled = await t.call('PATCH', `/offers/${offer.id}`, { body: { title: 'Renamed' } });
    expect(titled.json().script_version).toBe(1);
    expect((await setScript(offer.id, 'Greet\nAsk state\nThank')).script_version).toBe(2);

    const view = await t.call('GET', `/offers/${offer.id}/script`);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json()).toMatchObject({ current_version: 2, publishers: [], acknowledgements: [] });
    expect(view.json().versions).toMatchObject([
      { version: 2, body: 'Greet\nAsk state\nThank', added: 2, removed: 1 },
      { version: 1, body: 'Greet\nAsk ZIP', added: 2, removed: 0 },
    ]);
    expect(view.json().versions[0].created_by_email).toBe(t.admin.email);
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, offer.id), eq(auditLog.action, 'offer.script_version')));
    // Version 1 is in the offer.create entry; version 2 has its own.
    expect(entries).toHaveLength(1);
    expect(
      (await t.call('GET', '/offers/00000000-0000-4000-8000-000000000000/script')).statusCode,
    ).toBe(404);
  });

  it('offers without a script have no version; the hold choice is saved and validated', async () => {
    const offer = await createOffer({ script_ack_mode: 'hold', script_ack_days: 3 });
    expect(offer).toMatchObject({
      script_version: null,
      script_ack_mode: 'hold',
      script_ack_days: 3,
    });
    const bad = await t.call('PATCH', `/offers/${offer.id}`, { body: { script_ack_days: 400 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('at most 365');
  });
});

describe('the publisher reads the diff and acknowledges', () => {
  it('sees what changed since their last acknowledged version, and the admin sees who did', async () => {
    const offer = await createOffer({ script_instructions: 'Greet\nAsk ZIP' });
    await approve(offer.id, pub.id);

    const first = await asPublisher('GET', `/offers/${offer.id}/script`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      version: 1,
      acknowledged_version: null,
      needs_acknowledgement: true,
      diff: [
        { kind: 'added', text: 'Greet' },
        { kind: 'added', text: 'Ask ZIP' },
      ],
    });
    const pending = await asPublisher('GET', '/scripts/pending');
    expect(pending.json().items.map((i: { offer_id: string }) => i.offer_id)).toContain(offer.id);

    const acked = await asPublisher('POST', `/offers/${offer.id}/script/acknowledge`, {
      body: { version: 1 },
    });
    expect(acked.statusCode, acked.body).toBe(200);
    expect(acked.json()).toMatchObject({ acknowledged_version: 1, needs_acknowledgement: false });
    // Again: a no-op.
    const again = await asPublisher('POST', `/offers/${offer.id}/script/acknowledge`, {
      body: { version: 1 },
    });
    expect(again.statusCode).toBe(200);

    // A new version: e-mailed to the approved publisher, in their History.
    await setScript(offer.id, 'Greet\nAsk state');
    const mails = await mailsTo(t.db, pub.email);
    expect(mails.some((m) => m.subject.includes('(version 2)'))).toBe(true);
    const diff = await asPublisher('GET', `/offers/${offer.id}/script`);
    expect(diff.json()).toMatchObject({
      version: 2,
      acknowledged_version: 1,
      needs_acknowledgement: true,
      diff: [
        { kind: 'same', text: 'Greet' },
        { kind: 'removed', text: 'Ask ZIP' },
        { kind: 'added', text: 'Ask state' },
      ],
    });
    // Only the current version may be acknowledged.
    const old = await asPublisher('POST', `/offers/${offer.id}/script/acknowledge`, {
      body: { version: 1 },
    });
    expect(old.statusCode).toBe(409);
    expect(old.json().error.message).toContain('version 2 is');
    await asPublisher('POST', `/offers/${offer.id}/script/acknowledge`, { body: { version: 2 } });

    const view = (await t.call('GET', `/offers/${offer.id}/script`)).json();
    expect(view.publishers).toMatchObject([
      { publisher_id: pub.id, acknowledged_version: 2, current: true },
    ]);
    expect(view.acknowledgements.map((a: { version: number }) => a.version)).toEqual([2, 1]);
    const history = await t.db
      .select({ action: auditLog.action, actor: auditLog.actorEmail })
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'publisher'), eq(auditLog.entityId, pub.id)))
      .orderBy(auditLog.createdAt);
    expect(history.map((h) => h.action)).toEqual([
      'publisher.script_acknowledged',
      'publisher.script_version',
      'publisher.script_acknowledged',
    ]);
    expect(history[0]!.actor).toBe(pub.email);
  });

  it('acknowledges only offers the publisher is approved for (others: 404)', async () => {
    const offer = await createOffer({ script_instructions: 'Read me' });
    const other = await buildPublisher(t.db);
    const otherToken = await t.tokenOf(other);
    const pendingPub = await buildPublisher(t.db);
    await approve(offer.id, pendingPub.id, 'pending' as 'approved');
    for (const token of [otherToken, await t.tokenOf(pendingPub)]) {
      expect((await asPublisher('GET', `/offers/${offer.id}/script`, { token })).statusCode).toBe(
        404,
      );
      const ack = await asPublisher('POST', `/offers/${offer.id}/script/acknowledge`, {
        token,
        body: { version: 1 },
      });
      expect(ack.statusCode).toBe(404);
      expect(ack.json().error.message).toBe('Offer not found.');
    }
    // A buyer or the admin has no publisher area at all.
    const asAdmin = await asPublisher('GET', `/offers/${offer.id}/script`, { token: t.adminToken });
    expect(asAdmin.statusCode).toBe(403);
  });
});

describe('calls of a publisher late to acknowledge', () => {
  it('records the version in force at the call; flags or holds after the days', async () => {
    const hold = await createOffer({
      script_instructions: 'Hold script',
      script_ack_mode: 'hold',
      script_ack_days: 3,
    });
    const flag = await createOffer({ script_instructions: 'Flag script', script_ack_days: 3 });
    const plain = await createOffer({});
    await approve(hold.id, pub.id);
    await approve(flag.id, pub.id);

    // Within the days: paid as usual, the version on the lead.
    const early = await call(hold.id);
    expect(early.lead).toMatchObject({
      status: 'approved',
      scriptVersion: 1,
      scriptUnacknowledged: false,
    });
    expect((await call(plain.id)).lead).toMatchObject({ status: 'approved', scriptVersion: null });

    // Four days later, still not acknowledged.
    await publishedDaysAgo(hold.id, 4);
    await publishedDaysAgo(flag.id, 4);
    const held = await call(hold.id);
    expect(held.answer.status).toBe('pending');
    expect(held.lead).toMatchObject({
      status: 'pending',
      ruleOutcome: 'payable',
      scriptUnacknowledged: true,
    });
    expect(held.lead.statusReason).toMatch(
      /^Held: the publisher has not acknowledged script version 1 \(due \d{4}-\d\d-\d\d\)$/,
    );
    const detail = (await t.call('GET', `/leads/${held.lead.id}`)).json();
    expect(detail).toMatchObject({ script_version: 1, script_unacknowledged: true });
    const flagged = await call(flag.id);
    expect(flagged.lead).toMatchObject({ status: 'approved', scriptUnacknowledged: true });
    // Another publisher's call on the hold offer is held too (they never acknowledged).
    const late = await buildPublisher(t.db);
    expect((await call(hold.id, late.id)).lead.status).toBe('pending');

    // Acknowledged: paid again, not flagged.
    await asPublisher('POST', `/offers/${hold.id}/script/acknowledge`, { body: { version: 1 } });
    expect((await call(hold.id)).lead).toMatchObject({
      status: 'approved',
      scriptUnacknowledged: false,
    });

    // A new version: new leads record it, earlier ones keep theirs.
    await setScript(hold.id, 'Hold script v2');
    expect((await call(hold.id)).lead).toMatchObject({ status: 'approved', scriptVersion: 2 });
    const [kept] = await t.db.select().from(leads).where(eq(leads.id, early.lead.id));
    expect(kept!.scriptVersion).toBe(1);
  });
});
