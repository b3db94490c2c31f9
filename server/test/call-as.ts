import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { TestApp } from './build-test-app.ts';

/**
 * Calls the API as a signed-in user (a publisher's, a buyer's): `token` as the bearer, `body`
 * (when given) as JSON, `query` as the query string.
 */
export const callAs = (
  app: TestApp['app'],
  token: string,
  method: InjectOptions['method'],
  url: string,
  opts: { body?: unknown; query?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> =>
  app.inject({
    method,
    url,
    query: opts.query,
    headers: { authorization: `Bearer ${token}` },
    ...(opts.body !== undefined && { payload: opts.body as InjectOptions['payload'] }),
  });
