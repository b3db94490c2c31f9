import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { REFUSAL_RETENTION_DAYS } from '../../../contract/integrations.ts';
import { auditLog, ingestRefusals, integrations, leads } from '../../db/schema.ts';
import { fileAdminTest } from '../../test/admin-test.ts';
import { buildBuyer, buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';
import { flushIngestUsage } from './calls.routes.ts';
import { deleteOldRefusals } from './ingest.service.ts';

/** /api/v1/admin/integrations: keys shown once, revoke, mappings, refused calls and replay. */

const t = fileAdminTest();
let pub: TestUser;
let offer: Awaited<ReturnType<typeof buildOffer>>;

const post = (query: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/api/v1/ingest/calls', query });

const auditOf = (entityId: string) =>
  t.db.select().from(auditLog).where(eq(auditLog.entityId, entityId));

beforeAll(async () => {
  pub = await buildPublisher(t.db, { name: 'Mapped Mia' });
  offer = await buildOffer(t.db, { title: 'Medicare', payout: '18.00' });
});

describe('integration keys', () => {
  it('shows the key once, keeps only its hash, and lists the integration without it', async () => {
    const res = await t.call('POST', '/integrations', {
      body: { name: '  Ringba production  ', allowed_ips: ['203.0.113.0/24'] },
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const { key, integration } = res.json();
    expect(key).toMatch(/^ik_[A-Za-z0-9_-]{43}$/);
    expect(integration).toMatchObject({
      name: 'Ringba production',
      key_prefix: key.slice(0, 9),
      allowed_ips: ['203.0.113.0/24'],
      revoked_at: null,
      last_used_at: null,
      accepted_count: 0,
    });
    // A generic integration reads each field by its own name (its preset).
    expect(integration).toMatchObject({ tracker: 'generic', account_id: null, signature: null });
    expect(integration.field_map.call_id).toEqual({ names: ['call_id'] });
    const [row] = await t.db.select().from(integrations).where(eq(integrations.id, integration.id));
    expect(row!.keyHash).toBe(createHash('sha256').update(key).digest('hex'));

    const list = await t.call('GET', '/integrations');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(key);
    expect(list.json().items[0].id).toBe(integration.id);
    const one = await t.call('GET', `/integrations/${integration.id}`);
    expect(one.body).not.toContain(key);
    const audit = await auditOf(integration.id);
    expect(audit.map((a) => a.action)).toEqual(['integration.create']);
    expect(JSON.stringify(audit)).not.toContain(key);
  });

  it('refuses a duplicate name, bad addresses and bad parameter names with their reason', async () => {
    await t.call('POST', '/integrations', { body: { name: 'Twice' } });
    const dup = await t.call('POST', '/integrations', { body: { name: 'twice' } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.message).toContain('"twice" already exists');
    const ip = await t.call('POST', '/integrations', {
      body: { name: 'Bad IP', allowed_ips: ['10.0.0.0/33'] },
    });
    expect(ip.statusCode).toBe(400);
    expect(JSON.stringify(ip.json())).toContain('10.0.0.0/33 is not an IP address or CIDR range');
    const format = await t.call('POST', '/integrations', {
      body: { name: 'Bad format', field_map: { caller: { names: ['From'], format: 'minutes' } } },
    });
    expect(format.statusCode).toBe(400);
    expect(JSON.stringify(format.json())).toContain('caller takes no format.');
    const event = await t.call('POST', '/integrations', {
      body: { name: 'Bad event', field_map: { event: { map: { ringing: 'ringing' } } } },
    });
    expect(event.statusCode).toBe(400);
    expect(JSON.stringify(event.json())).toContain('event values map to one of incoming');
    const tracker = await t.call('POST', '/integrations', {
      body: { name: 'Bad tracker', tracker: 'acme' },
    });
    expect(tracker.statusCode).toBe(400);
    expect(JSON.stringify(tracker.json())).toContain('tracker must be one of ringba');
    const reserved = await t.call('POST', '/integrations', {
      body: { name: 'Reserved', field_map: { call_id: 'key' } },
    });
    expect(reserved.statusCode).toBe(400);
    const blank = await t.call('POST', '/integrations', { body: { name: ' ' } });
    expect(blank.statusCode).toBe(400);
    expect(JSON.stringify(blank.json())).toContain('Name is required.');
  });

  it('edits name, sources and parameter names, audited before → after', async () => {
    const created = (await t.call('POST', '/integrations', { body: { name: 'Editable' } })).json();
    const res = await t.call('PATCH', `/integrations/${created.integration.id}`, {
      body: { name: 'Edited', allowed_ips: ['198.51.100.1'], field_map: { duration: 'secs' } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Edited', allowed_ips: ['198.51.100.1'] });
    expect(res.json().field_map.duration).toEqual({ names: ['secs'] });
    // null puts a field back on the preset's rule.
    const reset = await t.call('PATCH', `/integrations/${created.integration.id}`, {
      body: { field_map: { duration: null } },
    });
    expect(reset.json().field_map.duration).toEqual({ names: ['duration'] });
    const audit = await auditOf(created.integration.id);
    const update = audit.find((a) => a.action === 'integration.update')!;
    expect(update.before).toMatchObject({ name: 'Editable', allowed_ips: [] });
    expect(update.after).toMatchObject({ name: 'Edited', allowed_ips: ['198.51.100.1'] });
  });

  it('revokes a key (twice changes nothing) and shows when it was last used', async () => {
    const created = (await t.call('POST', '/integrations', { body: { name: 'To revoke' } })).json();
    const id = created.integration.id as string;
    await post({ key: created.key, call_id: 'R-1', publisher: pub.id, offer: offer.id });
    await flushIngestUsage(t.app);
    const used = (await t.call('GET', `/integrations/${id}`)).json();
    expect(used.last_used_at).not.toBeNull();
    expect(used.accepted_count).toBe(1);
    const first = await t.call('POST', `/integrations/${id}/revoke`);
    expect(first.statusCode).toBe(200);
    expect(first.json().revoked_at).not.toBeNull();
    const again = await t.call('POST', `/integrations/${id}/revoke`);
    expect(again.json().revoked_at).toBe(first.json().revoked_at);
    const actions = (await auditOf(id)).map((a) => a.action);
    expect(actions.filter((a) => a === 'integration.revoke')).toHaveLength(1);
    expect((await t.call('POST', `/integrations/${crypto.randomUUID()}/revoke`)).statusCode).toBe(
      404,
    );
  });
});

describe('external ids, refused calls and replay', () => {
  it('attaches tracker ids to a publisher and an offer, and the calls use them', async () => {
    const created = (await t.call('POST', '/integrations', { body: { name: 'Mapped' } })).json();
    const id = created.integration.id as string;
    const p = await t.call('PUT', `/integrations/${id}/external-ids`, {
      body: { kind: 'publisher', external_id: 'RB-PUB-1', target_id: pub.id },
    });
    expect(p.statusCode).toBe(200);
    expect(p.json()).toMatchObject({
      kind: 'publisher',
      external_id: 'RB-PUB-1',
      target_label: 'Mapped Mia',
    });
    const o = await t.call('PUT', `/integrations/${id}/external-ids`, {
      body: { kind: 'offer', external_id: 'CA-77', target_id: offer.id },
    });
    expect(o.json().target_label).toBe('Medicare');
    /** A call naming the publisher and the offer by the tracker's own ids. */
    const postExternal = (call_id: string) =>
      post({ key: created.key, call_id, publisher: 'RB-PUB-1', offer: 'CA-77' });
    const res = await postExternal('M-1');
    expect(res.statusCode).toBe(200);
    const [lead] = await t.db.select().from(leads).where(eq(leads.id, res.json().id));
    expect(lead).toMatchObject({ publisherId: pub.id, offerId: offer.id, payout: '18.00' });

    const list = await t.call('GET', `/integrations/${id}/external-ids`);
    expect(list.json().total).toBe(2);
    const wrongTarget = await t.call('PUT', `/integrations/${id}/external-ids`, {
      body: { kind: 'publisher', external_id: 'X', target_id: offer.id },
    });
    expect(wrongTarget.statusCode).toBe(400);
    expect(wrongTarget.json().error.details.target_id).toEqual([
      'The selected publisher does not exist.',
    ]);
    const del = await t.call('DELETE', `/integrations/${id}/external-ids/${p.json().id}`);
    expect(del.statusCode).toBe(204);
    const after = await postExternal('M-2');
    expect(after.statusCode).toBe(422);
    const actions = (await auditOf(id)).map((a) => a.action);
    expect(actions).toContain('integration.external_id.attach');
    expect(actions).toContain('integration.external_id.detach');
  });

  it('lists refused calls and replays one after the mapping is fixed', async () => {
    const created = (await t.call('POST', '/integrations', { body: { name: 'Replay' } })).json();
    const id = created.integration.id as string;
    const refused = await post({
      key: created.key,
      call_id: 'RP-1',
      publisher: 'RB-NEW',
      offer: offer.id,
      duration: '75',
    });
    expect(refused.statusCode).toBe(422);
    const list = await t.call('GET', '/integrations/refusals', { query: { integration_id: id } });
    expect(list.statusCode).toBe(200);
    expect(list.json().total).toBe(1);
    const item = list.json().items[0];
    expect(item).toMatchObject({
      integration_name: 'Replay',
      http_status: 422,
      code: 'unknown_publisher',
      method: 'GET',
      query: { call_id: 'RP-1', publisher: 'RB-NEW', duration: '75' },
      replayed_at: null,
    });
    expect(item.query).not.toHaveProperty('key');

    // Replaying before the fix answers the same reason.
    const early = await t.call('POST', `/integrations/refusals/${item.id}/replay`);
    expect(early.statusCode).toBe(422);
    expect(early.json().error.code).toBe('unknown_publisher');

    await t.call('PUT', `/integrations/${id}/external-ids`, {
      body: { kind: 'publisher', external_id: 'RB-NEW', target_id: pub.id },
    });
    const replay = await t.call('POST', `/integrations/refusals/${item.id}/replay`);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().status).toBe('approved');
    const [lead] = await t.db.select().from(leads).where(eq(leads.id, replay.json().id));
    expect(lead).toMatchObject({
      publisherId: pub.id,
      externalCallId: 'RP-1',
      durationSeconds: 75,
    });
    const after = (
      await t.call('GET', '/integrations/refusals', { query: { integration_id: id } })
    ).json().items[0];
    expect(after).toMatchObject({ lead_id: replay.json().id });
    expect(after.replayed_at).not.toBeNull();
    const twice = await t.call('POST', `/integrations/refusals/${item.id}/replay`);
    expect(twice.statusCode).toBe(409);
    expect((await auditOf(id)).map((a) => a.action)).toContain('integration.refusal.replay');
  });

  it('does not store a call without a valid key (issue 26), and cannot replay an old one', async () => {
    const before = (await t.db.select().from(ingestRefusals)).length;
    const res = await post({ key: 'ik_wrong', call_id: 'W-1', publisher: pub.id, offer: offer.id });
    expect(res.statusCode).toBe(401);
    expect((await t.db.select().from(ingestRefusals)).length).toBe(before);
    // One kept before the change: no integration can take it.
    const [old] = await t.db
      .insert(ingestRefusals)
      .values({ httpStatus: 401, code: 'invalid_key', reason: 'old', method: 'GET' })
      .returning();
    const replay = await t.call('POST', `/integrations/refusals/${old!.id}/replay`);
    expect(replay.statusCode).toBe(409);
  });

  it(`forgets refused calls after ${REFUSAL_RETENTION_DAYS} days`, async () => {
    const [old] = await t.db
      .insert(ingestRefusals)
      .values({
        httpStatus: 401,
        code: 'invalid_key',
        reason: 'old',
        method: 'GET',
        createdAt: new Date(Date.now() - (REFUSAL_RETENTION_DAYS + 1) * 86_400_000),
      })
      .returning();
    const before = (await t.db.select().from(ingestRefusals)).length;
    expect(await deleteOldRefusals({ db: t.db })).toBe(1);
    const rows = await t.db.select().from(ingestRefusals);
    expect(rows).toHaveLength(before - 1);
    expect(rows.find((r) => r.id === old!.id)).toBeUndefined();
  });
});

describe('who may manage integrations', () => {
  it('answers 403 to publishers and buyers, 401 to a key or nobody', async () => {
    const created = (await t.call('POST', '/integrations', { body: { name: 'Guarded' } })).json();
    const publisherToken = await t.tokenOf(pub);
    const buyerToken = await t.tokenOf(await buildBuyer(t.db));
    for (const [method, path] of [
      ['GET', '/integrations'],
      ['POST', '/integrations'],
      ['GET', '/integrations/refusals'],
      ['POST', `/integrations/${created.integration.id}/revoke`],
    ] as const) {
      for (const token of [publisherToken, buyerToken]) {
        expect((await t.call(method, path, { token, body: {} })).statusCode).toBe(403);
      }
      const byKey = await t.call(method, path, {
        token: null,
        headers: { 'x-api-key': created.key },
        body: {},
      });
      expect(byKey.statusCode).toBe(401);
      const byKeyAsBearer = await t.call(method, path, { token: created.key, body: {} });
      expect(byKeyAsBearer.statusCode).toBe(401);
    }
  });
});
