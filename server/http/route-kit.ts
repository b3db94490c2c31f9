import type { FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Actor, currentUser, requireAuth } from '../auth/guard.ts';
import type { Db } from '../db/client.ts';
import { type CsvCell, csvLine, sendCsv } from '../db/csv.ts';
import { receiveFileBuffer } from '../storage/upload.ts';
import { respondIdempotently } from './idempotency.ts';
import { actorOf, bearerDoc, errorReplies, type RouteDoc } from './route-helpers.ts';

/**
 * Declaring a route in one call. A route file says what differs (path, zod schemas, the service
 * it calls); the kit writes the Fastify route with the OpenAPI doc of its area (tags, security,
 * documented errors) and the usual way of calling a service: `{ db, query }` for a list,
 * `{ db, actor, input }` for an idempotent create, `{ db, actor, id, input }` for a change of
 * one record, and so on. Requests are typed from the zod schemas, as with `app.get`, and every
 * hook of the plugin (role guard, rate limits…) applies: the routes are the plugin's own.
 */

/** The instance a `FastifyPluginAsyncZod` is given. */
export type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

type Zod = z.ZodType;
type Out<S> = S extends Zod ? z.output<S> : unknown;

/** The zod schemas and OpenAPI extras of one route. */
export type RouteParts = {
  params?: Zod;
  query?: Zod;
  body?: Zod;
  /** The success answer's schema, documented under `status` (200 unless said). */
  reply?: Zod;
  status?: number;
  /** Error answers this route documents besides those of its kit (409, 413…). */
  errors?: Record<number, Zod>;
  /** `multipart/form-data` for uploads. */
  consumes?: string[];
  description?: string;
};

/** The request of a route declared with `parts`, typed from its schemas. */
export type KitRequest<P extends RouteParts> = FastifyRequest<{
  Params: Out<P['params']>;
  Querystring: Out<P['query']>;
  Body: Out<P['body']>;
}>;

type Handler<P extends RouteParts> = (
  req: KitRequest<P>,
  reply: FastifyReply,
) => Promise<Out<P['reply']> | FastifyReply>;

/** A CSV download: its name before the date (`leads` → `leads-2024-05-31.csv`) and lines. */
export type CsvFile = { name: string; lines: AsyncIterable<string> };

/**
 * A table already read (a report's rows, totals last) as the lines a CSV download streams. The
 * text of a table answered again as the same array (a kept report's, see reportCsv) is written
 * once.
 */
export async function* tableLines(rows: CsvCell[][]): AsyncIterable<string> {
  let text = tableTexts.get(rows);
  if (text === undefined) {
    text = rows.map(csvLine).join('');
    tableTexts.set(rows, text);
  }
  yield text;
}
const tableTexts = new WeakMap<CsvCell[][], string>();

/** The `{ id }` params of a route on one record (each area's schema keeps its own message). */
type IdParts = { params: z.ZodType<{ id: string }> };

/** The `:id` of a route declared with `IdParts` (validated by its params schema). */
const idOf = (req: FastifyRequest) => (req.params as { id: string }).id;

/** `result` as the answer, with `status` when the route answers another than 200. */
const answer = (reply: FastifyReply, status: number | undefined, result: unknown) =>
  status === undefined ? result : reply.code(status).send(result);

/** The routes of one plugin: `doc` is their OpenAPI tags and security, `errors` their errors. */
export function routeKit(app: ZodApp, doc: RouteDoc, errors: Record<number, Zod> = {}) {
  const db = app.db;

  /** Registers the route with its area's doc; the request as Fastify validated it. */
  function register(
    method: HTTPMethods,
    url: string,
    parts: RouteParts,
    handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ): void {
    const { params, query, body, reply, status = 200, consumes, description } = parts;
    const response = { [status]: reply, ...parts.errors, ...errors };
    const schema = {
      ...doc,
      ...(description !== undefined && { description }),
      ...(consumes !== undefined && { consumes }),
      ...(params !== undefined && { params }),
      ...(query !== undefined && { querystring: query }),
      ...(body !== undefined && { body }),
      ...(reply !== undefined && { response }),
    };
    app.route({ method, url, schema, handler });
  }

  /** What an admin's action on the request's `:id` record takes: `{ db, actor, id }`. */
  const actionOf = (req: FastifyRequest) => ({ db, actor: actorOf(req), id: idOf(req) });

  /** Any route: the handler's request is typed from `parts` (validated before it runs). */
  function route<P extends RouteParts>(
    method: HTTPMethods,
    url: string,
    parts: P,
    handler: Handler<P>,
  ): void {
    register(method, url, parts, (req, reply) => handler(req as KitRequest<P>, reply));
  }

  return {
    route,

    /** What a service of the signed-in user's own records takes: `{ db, userId }`. */
    own: (req: FastifyRequest) => ({ db, userId: currentUser(req).id }),

    /** What a service of the admin's action on the route's `:id` record takes (`AdminAction`). */
    action: actionOf,

    /** GET of the route's `:id` record (a detail, its figures): `read({ db, id })`. */
    read<R extends Zod>(
      url: string,
      parts: IdParts & { reply: R },
      read: (o: { db: Db; id: string }) => Promise<z.output<R>>,
    ) {
      register('GET', url, parts, async (req) => read({ db, id: idOf(req) }));
    },

    /**
     * GET of a list (or a report) read with its query string: `list({ db, query }, req)` (the
     * request for the signed-in user's own lists).
     */
    list<Q extends Zod, R extends Zod>(
      url: string,
      parts: { query: Q; reply: R; errors?: Record<number, Zod> },
      list: (o: { db: Db; query: z.output<Q> }, req: FastifyRequest) => Promise<z.output<R>>,
    ) {
      register('GET', url, parts, async (req) =>
        list({ db, query: req.query as z.output<Q> }, req),
      );
    },

    /**
     * A list (GET `url`) and its CSV export (GET `url`.csv, named after it), which takes the
     * list's filters and sort (paging does not apply to an export): `csv({ db, filter })`.
     */
    listWithCsv<Q extends Zod, C extends Zod, R extends Zod>(
      url: string,
      parts: { query: Q; csv: C; reply: R },
      list: (o: { db: Db; query: z.output<Q> }) => Promise<z.output<R>>,
      csv: (o: { db: Db; filter: z.output<C> }) => AsyncIterable<string>,
    ) {
      register('GET', url, { query: parts.query, reply: parts.reply }, async (req) =>
        list({ db, query: req.query as z.output<Q> }),
      );
      register('GET', `${url}.csv`, { query: parts.csv }, async (req, reply) =>
        sendCsv(reply, url.slice(1), csv({ db, filter: req.query as z.output<C> })),
      );
    },

    /** A POST by the admin on many records or none in particular: `command({ db, actor, input })`. */
    command<B extends Zod, R extends Zod>(
      url: string,
      parts: { body: B; reply: R },
      command: (o: { db: Db; actor: Actor; input: z.output<B> }) => Promise<z.output<R>>,
    ) {
      register('POST', url, parts, async (req) =>
        command({ db, actor: actorOf(req), input: req.body as z.output<B> }),
      );
    },

    /** POST that creates a record, 201, once per Idempotency-Key: `create({ db, actor, input })`. */
    create<B extends Zod, R extends Zod>(
      url: string,
      parts: { body: B; reply: R },
      create: (o: { db: Db; actor: Actor; input: z.output<B> }) => Promise<z.output<R>>,
    ) {
      register('POST', url, { ...parts, status: 201 }, async (req, reply) =>
        respondIdempotently(req, reply, 201, (tx) =>
          create({ db: tx, actor: actorOf(req), input: req.body as z.output<B> }),
        ),
      );
    },

    /**
     * A change to one record by the admin: `change({ db, actor, id, input })`, answered with
     * `status` when it is not 200 (202 for work that goes on in the background).
     */
    change<B extends Zod, R extends Zod>(
      method: 'PATCH' | 'PUT' | 'POST',
      url: string,
      parts: IdParts & { body: B; reply: R; status?: number },
      change: (o: { db: Db; actor: Actor; id: string; input: z.output<B> }) => Promise<z.output<R>>,
    ) {
      register(method, url, parts, async (req, reply) =>
        answer(
          reply,
          parts.status,
          await change({ ...actionOf(req), input: req.body as z.output<B> }),
        ),
      );
    },

    /** An action on one record by the admin, without a body: `act({ db, actor, id })`. */
    act<R extends Zod>(
      url: string,
      parts: IdParts & { reply: R; status?: number },
      act: (o: { db: Db; actor: Actor; id: string }) => Promise<z.output<R>>,
    ) {
      register('POST', url, parts, async (req, reply) =>
        answer(reply, parts.status, await act(actionOf(req))),
      );
    },

    /**
     * POST of one CSV file (multipart, part `file`, at most `maxBytes`) that the admin's service
     * reads whole: `read({ db, actor, filename, data })`, answered with `status` when it is not
     * 200. A larger file is refused (413) with "The file is larger than N MB." and `tooLarge`.
     */
    csvUpload<R extends Zod>(
      url: string,
      parts: { reply: R; maxBytes: number; tooLarge: string; status?: number },
      read: (o: { db: Db; actor: Actor; filename: string; data: Buffer }) => Promise<z.output<R>>,
    ) {
      const { reply, maxBytes, status } = parts;
      const consumes = ['multipart/form-data'];
      register('POST', url, { consumes, reply, status }, async (req, res) => {
        const file = await receiveFileBuffer(req, {
          field: 'file',
          maxBytes,
          tooLarge: `The file is larger than ${maxBytes / 1024 / 1024} MB. ${parts.tooLarge}`,
          missing: 'Please choose a CSV file.',
        });
        const { filename, data } = file;
        return answer(res, status, await read({ db, actor: actorOf(req), filename, data }));
      });
    },

    /** DELETE of one record, answered 204 without a body: `remove({ db, actor, id })`. */
    remove(
      url: string,
      parts: IdParts,
      remove: (o: { db: Db; actor: Actor; id: string }) => Promise<unknown>,
    ) {
      register('DELETE', url, { ...parts, reply: z.null(), status: 204 }, async (req, reply) => {
        await remove(actionOf(req));
        return reply.status(204).send(null);
      });
    },

    /**
     * GET of a CSV download read with a query string (a list's filters and sort: paging does
     * not apply to an export).
     */
    csv<Q extends Zod>(
      url: string,
      query: Q,
      csv: (query: z.output<Q>, req: FastifyRequest) => CsvFile | Promise<CsvFile>,
    ) {
      register('GET', url, { query }, async (req, reply) => {
        const { name, lines } = await csv(req.query as z.output<Q>, req);
        return sendCsv(reply, name, lines);
      });
    },
  };
}

/** The routes of one plugin, as `routeKit` declares them. */
export type RouteKit = ReturnType<typeof routeKit>;

/**
 * A Fastify plugin whose routes `build` declares with a kit of `doc` (and `errors`): what each
 * area's route file would otherwise open with.
 */
export function kitPlugin(
  doc: RouteDoc,
  build: (kit: RouteKit, app: ZodApp) => void | Promise<void>,
  errors?: Record<number, Zod>,
): FastifyPluginAsyncZod {
  return async (app) => {
    await build(routeKit(app, doc, errors), app);
  };
}

/**
 * The kit of a `/api/v1/me/…` plugin: the signed-in user's own records, whatever their role.
 * The guard runs at onRequest (a stranger learns nothing, not even a validation answer) and
 * no answer is cached.
 */
export function meKit(app: ZodApp): RouteKit {
  app.addHook('onRequest', requireAuth);
  app.addHook('onSend', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
  });
  return routeKit(app, bearerDoc('me'), errorReplies(400, 401, 403));
}

/** A `/api/v1/me/…` plugin whose routes `build` declares with its `meKit`. */
export function mePlugin(build: (mine: RouteKit, app: ZodApp) => void): FastifyPluginAsyncZod {
  return async (app) => {
    build(meKit(app), app);
  };
}
