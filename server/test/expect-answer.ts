import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** The answer has this HTTP status and a JSON body matching `body` (toMatchObject). */
export function expectAnswer(res: LightMyRequestResponse, status: number, body: object): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject(body);
}
