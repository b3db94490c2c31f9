import { vi } from 'vitest';

/** What a stubbed API route sees: the method, the path, the JSON body (null without one). */
export type StubRequest = {
  method: string;
  path: string;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the JSON the screen sent as it knows it
  body: any;
};

/** A JSON answer (no body for null). */
export const json = (status: number, body: unknown) =>
  new Response(body === null ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/**
 * Stubs `fetch` for a screen's test: `route` answers each request (undefined: 404 "No route.").
 * Undo with `vi.unstubAllGlobals()`.
 */
export function stubApi(route: (req: StubRequest) => Response | undefined) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      const body = init?.body ? JSON.parse(String(init.body)) : null;
      return (
        route({ method: init?.method ?? 'GET', path: url.pathname, body }) ??
        json(404, { error: { code: 'not_found', message: 'No route.' } })
      );
    }),
  );
}
