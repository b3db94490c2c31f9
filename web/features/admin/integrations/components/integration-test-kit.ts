import type { AdminIntegration } from '@contract/integrations.ts';
import { presetOf } from '@contract/tracker-presets.ts';
import { beforeEach } from 'vitest';
import { json, stubFetch } from '@/test/fake-api.ts';

/**
 * The integration the component tests open, as the server answers it: a Twilio account whose
 * fields all have the preset's rule, no signature, never used; `patch` changes what a test needs.
 */
export function twilioIntegration(patch: Partial<AdminIntegration> = {}): AdminIntegration {
  return {
    id: '7b0e8d8e-2f7a-4c1e-9a55-0c1f3a9d2b11',
    name: 'Twilio numbers',
    tracker: 'twilio',
    account_id: null,
    time_zone: null,
    key_prefix: 'ik_abcdef',
    allowed_ips: [],
    field_map: { ...presetOf('twilio').mapping },
    signature: null,
    call_id_fields: [],
    secret_params: [],
    shares_calls_with: [],
    revoked_at: null,
    last_used_at: null,
    accepted_count: 0,
    refused_count: 0,
    created_at: '2026-11-25T09:00:00.000Z',
    ...patch,
  };
}

type Answer = { status: number; body: unknown };

/**
 * Stubs `fetch` around each test: every call gets `api.answer` (back to `first()` before each
 * test), and the JSON bodies sent to `path` are kept in `api.sent`, in order.
 */
export function stubApi(path: string, first: () => Answer) {
  const api = { sent: [] as unknown[], answer: first() };
  beforeEach(() => {
    api.sent = [];
    api.answer = first();
    stubFetch(({ url, body }) => {
      if (url.pathname === path) api.sent.push(body());
      return json(api.answer.status, api.answer.body);
    });
  });
  return api;
}
