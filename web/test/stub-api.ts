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

/**
 * A collection the fake server keeps at `path` (e.g. `/api/v1/me/api-keys`): GET lists it as
 * `{ items }`, POST adds `make(body)` and answers 201 with `answer(item)` (e.g. with its secret),
 * DELETE `path/<id>` removes it (204). `posted` and `deleted` keep what the screen sent; `route`
 * is for `stubApi` (undefined for any other path).
 */
export function fakeCollection<T extends { id: string }>(
  path: string,
  // biome-ignore lint/suspicious/noExplicitAny: the JSON the screen posted, as the test knows it
  make: (body: any) => T,
  answer: (item: T) => unknown = (item) => item,
) {
  const c = {
    items: [] as T[],
    posted: [] as unknown[],
    deleted: [] as string[],
    route({ method, path: at, body }: StubRequest): Response | undefined {
      if (at === path && method === 'POST') {
        c.posted.push(body);
        const item = make(body);
        c.items.push(item);
        return json(201, answer(item));
      }
      if (at === path && method === 'GET') return json(200, { items: c.items });
      const id = at.startsWith(`${path}/`) ? at.slice(path.length + 1) : '';
      if (id && !id.includes('/') && method === 'DELETE') {
        c.deleted.push(id);
        c.items = c.items.filter((item) => item.id !== id);
        return json(204, null);
      }
      return undefined;
    },
  };
  return c;
}
