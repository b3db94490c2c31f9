import { afterAll, beforeAll, expect, it } from 'vitest';
import { integrations } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { hashIntegrationKey, newIntegrationKey } from './lead-ingest.ts';

/** A pixel URL carries the integration key: the request log must not keep it. */

const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({
    deps: { logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } } },
  });
});
afterAll(() => t.close());

it('logs a postback without its key (query or header)', async () => {
  const key = newIntegrationKey();
  await t.db
    .insert(integrations)
    .values({ name: 'logged', keyHash: hashIntegrationKey(key), keyPrefix: key.slice(0, 9) });
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/ingest/calls?call_id=L-1&key=${key}&publisher=nobody&offer=none`,
    headers: { 'x-api-key': key },
  });
  expect(res.statusCode).toBe(422);
  const log = lines.join('\n');
  expect(log).toContain('GET /api/v1/ingest/calls 422');
  expect(log).not.toContain(key);
});
