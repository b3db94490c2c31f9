import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  FieldRule,
  KEY_PARAM,
  Mapping,
  REDACTED,
  type Tracker,
} from '../../../contract/ingest-mapping.ts';
import { trackerPresets } from '../../../contract/tracker-presets.ts';
import { leads } from '../../db/schema.ts';
import { fileAdminTest } from '../../test/admin-test.ts';
import { buildOffer, buildPublisher } from '../../test/factories.ts';
import {
  callrailDocumentedKey,
  callrailDocumentedPayload,
  callrailDocumentedSignature,
  callrailFixtures,
} from './fixtures/callrail.ts';
import { invocaFixtures } from './fixtures/invoca.ts';
import { retreaverFixtures } from './fixtures/retreaver.ts';
import { ringbaFixtures } from './fixtures/ringba.ts';
import { trackdriveFixtures } from './fixtures/trackdrive.ts';
import { twilioFixtures, twilioSignatureExamples } from './fixtures/twilio.ts';
import type { FixtureIntegration, FixtureScenario, FixtureStep } from './fixtures/types.ts';
import { verifySignature } from './signatures.ts';

/**
 * Each tracker's documented postbacks (fixtures/<tracker>.ts), received by configuring
 * integrations through the admin API only (issue 26): per scenario a fresh publisher and offer,
 * the integration(s) with the tracker's preset, its ids attached and its numbers assigned;
 * then every step sent as the tracker sends it (GET pixel, form, JSON, signed) and the stored
 * lead checked field by field.
 */

const t = fileAdminTest();

const INGEST = '/api/v1/ingest/calls';
let seq = 0;

type Made = { id: string; key: string; spec: FixtureIntegration };

/** The signature the tracker would put on this request, with the integration's secret. */
function signatureOf(
  spec: FixtureIntegration,
  url: string,
  body: string,
  form: Record<string, string> | null,
) {
  const sig = spec.signature;
  if (!sig) throw new Error('A signed step needs an integration with a signature.');
  if (sig.scheme === 'twilio') {
    // Twilio: the URL as it called it, then each POST parameter sorted by name, name + value.
    let payload = url;
    if (form) for (const name of Object.keys(form).sort()) payload += name + form[name];
    return {
      header: sig.header ?? 'X-Twilio-Signature',
      value: createHmac('sha1', sig.secret).update(payload).digest('base64'),
    };
  }
  if (sig.scheme === 'callrail') {
    return {
      header: sig.header ?? 'Signature',
      value: createHmac('sha1', sig.secret).update(body).digest('base64'),
    };
  }
  throw new Error(`No fixture signs with ${sig.scheme}.`);
}

/** Sends one step as the tracker would: query, form or JSON body, key, signature. */
async function send(step: FixtureStep, made: Made[]) {
  const r = step.request;
  const integ = made[r.via ?? 0];
  if (!integ)
    throw new Error(`Step "${step.name}" names integration ${r.via}, which the scenario lacks.`);
  const keyIn = r.keyIn ?? (r.method === 'GET' ? 'query' : 'header');
  const query: Record<string, string> = { ...r.query };
  if (keyIn === 'query') query[KEY_PARAM] = integ.key;
  const qs = new URLSearchParams(query).toString();
  const url = qs ? `${INGEST}?${qs}` : INGEST;
  const headers: Record<string, string> = { ...r.headers };
  if (keyIn === 'header') headers['x-api-key'] = integ.key;

  let body = '';
  let form: Record<string, string> | null = null;
  if (r.form) {
    form = { ...r.form };
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(form).toString();
  } else if (r.rawJson !== undefined || r.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = r.rawJson ?? JSON.stringify(r.json);
  }

  if (r.sign && typeof r.sign === 'object') {
    headers[r.sign.header] = r.sign.value;
  } else if (r.sign) {
    const s = signatureOf(integ.spec, `${t.config.publicUrl}${url}`, body, form);
    headers[s.header] = s.value;
    if (r.sign === 'tampered') {
      // The body changed after the tracker signed it.
      if (form) {
        form = { ...form, Tampered: '1' };
        body = new URLSearchParams(form).toString();
      } else {
        body = JSON.stringify({ ...(JSON.parse(body) as object), tampered: true });
      }
    }
  }

  const req: InjectOptions = { method: r.method, url, headers, remoteAddress: '203.0.113.40' };
  if (r.method === 'POST') req.payload = body;
  return t.app.inject(req);
}

const money = (v: string | null) => (v === null ? null : Number(v).toFixed(2));

async function runScenario(tracker: Tracker, sc: FixtureScenario) {
  const n = ++seq;
  const pub = await buildPublisher(t.db, { name: `Fixture publisher ${n}` });
  const offer = await buildOffer(t.db, {
    title: `Fixture offer ${n}`,
    payout: sc.offer_payout ?? '25.00',
  });

  const made: Made[] = [];
  for (const [i, spec] of (sc.integrations ?? [{}]).entries()) {
    const res = await t.call('POST', '/integrations', {
      body: { name: `${tracker} fixture ${n}.${i}`, tracker, ...spec },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { integration, key } = res.json() as {
      integration: { id: string; tracker: string };
      key: string;
    };
    expect(integration.tracker).toBe(tracker);
    made.push({ id: integration.id, key, spec });
    for (const [kind, ids, target] of [
      ['publisher', sc.publisher_ids ?? [], pub.id],
      ['offer', sc.offer_ids ?? [], offer.id],
    ] as const) {
      for (const external_id of ids) {
        const put = await t.call('PUT', `/integrations/${integration.id}/external-ids`, {
          body: { kind, external_id, target_id: target },
        });
        expect(put.statusCode, put.body).toBe(200);
      }
    }
  }
  for (const number of sc.tracking_numbers ?? []) {
    const res = await t.call('POST', '/tracking-numbers', {
      body: { number, publisher_id: pub.id, offer_id: offer.id },
    });
    expect(res.statusCode, res.body).toBe(201);
  }

  for (const step of sc.steps) {
    const where = `${sc.name} → ${step.name}`;
    const res = await send(step, made);
    expect(res.statusCode, `${where}: ${res.body}`).toBe(step.http ?? 200);

    // By the call id alone: an integration of an account already seen (another scenario's
    // Twilio account or CallRail company) keeps its calls under that account's first
    // integration. Fixture call ids are unique across all trackers.
    const rows = await t.db.select().from(leads).where(eq(leads.externalCallId, sc.call_id));
    expect(rows.length, `${where}: leads of the call`).toBe(step.leads ?? 1);
    const want = step.lead;
    if (!want) continue;
    const lead = rows[0]!;
    const got = {
      status: lead.status,
      reason: lead.statusReason,
      caller: lead.caller,
      tracking_number: lead.trackingNumber,
      duration_seconds: lead.durationSeconds,
      payout: money(lead.payout),
      revenue: money(lead.revenue),
      state: lead.state,
      zip: lead.zip,
      timestamp: lead.timestamp.toISOString(),
      recording_url: lead.recordingUrl,
    };
    const { reason, attributed, redacted_tags, ...fields } = want;
    expect(got, where).toMatchObject(fields);
    if (reason !== undefined) expect(lead.statusReason ?? '', where).toContain(reason);
    if (attributed) {
      expect({ publisher: lead.publisherId, offer: lead.offerId }, where).toEqual({
        publisher: pub.id,
        offer: offer.id,
      });
    }
    for (const tag of redacted_tags ?? []) {
      expect((lead.tags as Record<string, string> | null)?.[tag], `${where}: tag ${tag}`).toBe(
        REDACTED,
      );
    }
  }
}

const byTracker: [Tracker, FixtureScenario[]][] = [
  ['ringba', ringbaFixtures],
  ['retreaver', retreaverFixtures],
  ['trackdrive', trackdriveFixtures],
  ['invoca', invocaFixtures],
  ['callrail', callrailFixtures],
  ['twilio', twilioFixtures],
];

for (const [tracker, scenarios] of byTracker) {
  describe(`${tracker}: documented postbacks through the ${tracker} preset`, () => {
    for (const sc of scenarios) {
      it(sc.name, () => runScenario(tracker, sc));
    }
  });
}

describe('the presets themselves', () => {
  it('every preset passes the API’s own mapping validation and names its sources', () => {
    for (const [tracker, preset] of Object.entries(trackerPresets)) {
      expect(preset.tracker).toBe(tracker);
      const parsed = Mapping.safeParse(preset.mapping);
      expect(parsed.success, `${tracker}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      for (const rule of Object.values(preset.mapping))
        expect(FieldRule.safeParse(rule).success).toBe(true);
      if (tracker !== 'generic') expect(preset.sources.length, tracker).toBeGreaterThan(0);
      for (const step of preset.setup) {
        expect(Object.keys(step.query ?? {}), `${tracker}: ${step.trigger}`).not.toContain(
          KEY_PARAM,
        );
      }
    }
  });

  it('trackers that send no publisher read the number called', () => {
    for (const preset of Object.values(trackerPresets)) {
      if (preset.sendsPublisher) continue;
      expect(preset.mapping.tracking_number?.names?.length, preset.tracker).toBeGreaterThan(0);
    }
  });
});

describe('signatures: the vendors’ published test vectors', () => {
  const twilioReq = (
    params: Record<string, string>,
    signature: string,
    url = twilioSignatureExamples.url,
  ) => ({
    url,
    headers: { 'x-twilio-signature': signature },
    rawBody: new URLSearchParams(params).toString(),
    form: params,
  });

  it("accepts Twilio's worked example (both versions of the page) and refuses it changed", () => {
    const ex = twilioSignatureExamples;
    const sig = { scheme: 'twilio' as const, secret: ex.authToken };
    expect(verifySignature(sig, twilioReq(ex.params, ex.signature))).toBe(true);
    expect(verifySignature(sig, twilioReq(ex.earlier.params, ex.earlier.signature))).toBe(true);
    // A digit pressed differently, another URL, another token: refused.
    expect(verifySignature(sig, twilioReq({ ...ex.params, Digits: '1235' }, ex.signature))).toBe(
      false,
    );
    expect(
      verifySignature(
        sig,
        twilioReq(ex.params, ex.signature, 'https://mycompany.com/myapp.php?foo=1&bar=3'),
      ),
    ).toBe(false);
    expect(verifySignature({ ...sig, secret: '123456' }, twilioReq(ex.params, ex.signature))).toBe(
      false,
    );
    expect(verifySignature(sig, { ...twilioReq(ex.params, ex.signature), headers: {} })).toBe(
      false,
    );
  });

  it("accepts CallRail's documented payload and signing key, and refuses it changed", () => {
    const sig = { scheme: 'callrail' as const, secret: callrailDocumentedKey };
    const rawBody = JSON.stringify(callrailDocumentedPayload);
    const req = {
      url: `http://localhost:3000${INGEST}`,
      headers: { signature: callrailDocumentedSignature },
      rawBody,
      form: null,
    };
    expect(verifySignature(sig, req)).toBe(true);
    expect(
      verifySignature(sig, {
        ...req,
        rawBody: rawBody.replace('"duration":"13"', '"duration":"14"'),
      }),
    ).toBe(false);
    expect(verifySignature(sig, { ...req, rawBody: `${rawBody} ` })).toBe(false);
    expect(verifySignature({ ...sig, secret: '072e77e426f92738a72fe23c4d1953b5' }, req)).toBe(
      false,
    );
  });
});
