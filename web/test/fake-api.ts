import { afterEach, vi } from 'vitest';

/**
 * A fake server for screen tests: `fetch` is stubbed and each request goes to `answer`, which
 * returns the Response the server would (`json`, `noRoute`). The stub is removed after each test.
 */

/** One request as the fake server sees it. */
export type FakeRequest = {
  url: URL;
  /** `GET` unless the client said otherwise. */
  method: string;
  init: RequestInit | undefined;
  /** The JSON body the client sent, parsed (undefined without one or for a form). */
  body: <T = Record<string, unknown>>() => T;
};

/** A JSON answer; 204 and `null` answer without a body. */
export const json = (status: number, body: unknown) =>
  new Response(status === 204 || body === null ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/** The server's 404 for a path the fake does not know. */
export const noRoute = () => json(404, { error: { code: 'not_found', message: 'No route.' } });

/** A one-page list answer of `items`. */
export const pageOf = (items: unknown[], page_size = 25) => ({
  items,
  total: items.length,
  total_exact: true,
  page: 1,
  page_size,
  next_cursor: null,
});

/** Stubs `fetch` with `answer` until the end of the test; returns the stub (its calls). */
export function stubFetch(answer: (req: FakeRequest) => Response | Promise<Response>) {
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const body = <T>() => (typeof init?.body === 'string' ? JSON.parse(init.body) : undefined) as T;
    return answer({ url, method: init?.method ?? 'GET', init, body });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => {
  vi.unstubAllGlobals();
});
