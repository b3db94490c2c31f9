import { json, noRoute, stubFetch } from './fake-api.ts';

export { json };

/** What a stubbed API route sees: the method, the path, the JSON body (null without one). */
export type StubRequest = {
  method: string;
  path: string;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the JSON the screen sent as it knows it
  body: any;
};

/**
 * The fake server of fake-api.ts with a route function by path: `route` answers each request
 * (undefined: the server's 404 "No route."). The stub is removed after each test.
 */
export function stubApi(route: (req: StubRequest) => Response | undefined) {
  return stubFetch(
    (req) =>
      route({ method: req.method, path: req.url.pathname, body: req.body() ?? null }) ?? noRoute(),
  );
}
