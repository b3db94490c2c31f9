import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { TestApp } from './build-test-app.ts';
import { type MultipartPart, multipartBody } from './multipart.ts';

/**
 * Calls the API as a signed-in user (a publisher's, a buyer's): `token` as the bearer, `body`
 * (when given) as JSON or `multipart` as a multipart/form-data body, `query` as the query string.
 */
export const callAs = (
  app: TestApp['app'],
  token: string,
  method: InjectOptions['method'],
  url: string,
  opts: { body?: unknown; multipart?: MultipartPart[]; query?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> => {
  const form = opts.multipart && multipartBody(opts.multipart);
  const payload = form ? form.payload : opts.body;
  return app.inject({
    method,
    url,
    query: opts.query,
    headers: { ...form?.headers, authorization: `Bearer ${token}` },
    ...(payload !== undefined && { payload: payload as InjectOptions['payload'] }),
  });
};
