import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { leads } from '../db/schema.ts';
import type { AdminTestContext } from './admin-test.ts';

export type TrackerCall = Record<string, unknown>;
type LeadRow = typeof leads.$inferSelect;

/** A call tracker in a test: an integration made through the admin API and its calls. */
export type TestTracker = {
  key: string;
  integrationId: string;
  /** A call id no other call of the run has. */
  callId(): string;
  /** POST /api/v1/ingest/calls with the integration's key, as the tracker sends a call. */
  post(call: TrackerCall): Promise<LightMyRequestResponse>;
  /** A completed 120-second call of the publisher on the offer with a new id (`over` adds or replaces fields). */
  completed(publisherId: string, offerId: string, over?: TrackerCall): TrackerCall;
  /** A call's first event (`incoming`) of the publisher on the offer, likewise. */
  started(publisherId: string, offerId: string, over?: TrackerCall): TrackerCall;
  /** The lead of a call of this tracker, by the call's id. */
  leadOf(callId: string): Promise<LeadRow>;
  /** Posts the call, expects 200, and answers the endpoint's answer and the call's lead row. */
  send(call: TrackerCall): Promise<{ answer: { id: string; status: string }; lead: LeadRow }>;
};

let seq = 0;

export async function newTracker(t: AdminTestContext, name: string): Promise<TestTracker> {
  const res = await t.call('POST', '/integrations', { body: { name } });
  expect(res.statusCode, res.body).toBe(201);
  const key: string = res.json().key;
  const integrationId: string = res.json().integration.id;
  const tracker: TestTracker = {
    key,
    integrationId,
    callId: () => `TC${Date.now().toString(36)}${seq++}`,
    post: (call) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/ingest/calls',
        headers: { 'x-api-key': key },
        payload: call,
      }),
    completed: (publisherId, offerId, over = {}) =>
      tracker.started(publisherId, offerId, { event: 'completed', duration: 120, ...over }),
    started: (publisherId, offerId, over = {}) => ({
      call_id: tracker.callId(),
      event: 'incoming',
      publisher: publisherId,
      offer: offerId,
      ...over,
    }),
    async leadOf(callId) {
      const [lead] = await t.db
        .select()
        .from(leads)
        .where(and(eq(leads.integrationId, integrationId), eq(leads.externalCallId, callId)));
      return lead!;
    },
    async send(call) {
      const res = await tracker.post(call);
      expect(res.statusCode, res.body).toBe(200);
      return { answer: res.json(), lead: await tracker.leadOf(String(call.call_id)) };
    },
  };
  return tracker;
}
