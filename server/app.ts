import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import {
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { authRoutes } from './auth/auth.routes.ts';
import { corsPlugin } from './auth/cors.ts';
import { decorateRateLimits } from './auth/rate-limit.ts';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { devSinkRoutes } from './demo/dev-sink.routes.ts';
import { errorHandler, sendError } from './http/error-handler.ts';
import { idempotencyPlugin } from './http/idempotency.ts';
import { inputGuards } from './http/input-guards.ts';
import { metricsPlugin } from './http/metrics.ts';
import { loggerOptions, requestLog } from './http/request-log.ts';
import { securityHeaders } from './http/security-headers.ts';
import { answerSerializer } from './http/serializer.ts';
import { devMailboxRoutes } from './mail/dev-mailbox.routes.ts';
import { mailPlugin } from './mail/worker.ts';
import { meRoutes } from './modules/accounts/index.ts';
import { adminRoutes } from './modules/admin/index.ts';
import { apiKeyRoutes } from './modules/api-keys/index.ts';
import { buyerRoutes } from './modules/campaigns/index.ts';
import { registerFraud } from './modules/fraud/index.ts';
import { ingestRoutes } from './modules/ingest/index.ts';
import { liveRoutes, registerLive } from './modules/live/index.ts';
import { notificationsRoutes } from './modules/notifications/index.ts';
import { registerOutbound } from './modules/outbound/index.ts';
import { publisherRoutes } from './modules/publisher/index.ts';
import { registerReportFold, registerReportWarmUp } from './modules/reports/index.ts';
import { publicSettingsRoutes } from './modules/settings/index.ts';
import { documentFileRoutes, registerSignatureReminders } from './modules/signatures/index.ts';
import { filesRoutes } from './storage/files.routes.ts';
import { createStorage } from './storage/index.ts';
import type { Storage } from './storage/storage.ts';
import { MULTIPART_LIMITS } from './storage/upload.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    database: Database;
    /**
     * draining: SIGTERM was received. /readyz answers 503 so the balancer stops sending traffic,
     * responses close their connection, and background workers claim no new work.
     */
    lifecycle: { draining: boolean };
    /** Every route as registered (method, url); the authorization matrix test walks it. */
    registeredRoutes: readonly { method: string; url: string }[];
  }
}

export type AppDeps = {
  config: Config;
  database: Database;
  /** Where the built SPA lives; defaults to dist/web. */
  webRoot?: string;
  /** Pino logger options, or false to keep tests quiet. */
  logger?: boolean | object;
  /** File storage; defaults to the one config chooses (S3 when S3_BUCKET is set, else local). */
  storage?: Storage;
};

const here = path.dirname(fileURLToPath(import.meta.url));
/** /robots.txt: everything is private but /login (`$`: not /login/verify and the like). */
export const ROBOTS_TXT = 'User-agent: *\nAllow: /login$\nDisallow: /\n';

export const defaultWebRoot = path.resolve(here, '../dist/web');

/**
 * The built copies of index.html that also preload an area's chunks (scripts/entry-pages.ts
 * writes them and this map, `.vite/entry-pages.json`: address → page under the web root, `/x/*`
 * for any address under /x/). Read once at start; a build without it (older, or a test's folder)
 * serves index.html everywhere. Answers the page for a path without its trailing slash.
 */
function readEntryPages(webRoot: string): (path: string) => string {
  const file = path.join(webRoot, '.vite/entry-pages.json');
  const pages = existsSync(file)
    ? Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>).filter(
        ([, page]) => existsSync(path.join(webRoot, page)),
      )
    : [];
  const exact = new Map(pages.filter(([at]) => !at.endsWith('/*')));
  const under = pages
    .filter(([at]) => at.endsWith('/*'))
    .map(([at, page]): [string, string] => [at.slice(0, -1), page]);
  return (p) => exact.get(p) ?? under.find(([prefix]) => p.startsWith(prefix))?.[1] ?? 'index.html';
}

/** Paths owned by the API side: an unknown one answers JSON 404, never the SPA. */
const apiPrefixes = ['/api/', '/auth/', '/files/', '/dev/'];

/** Builds the whole server with an explicit plugin order; listen() is the caller's. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    logger: deps.logger === undefined ? loggerOptions(config) : deps.logger,
    // One line per request instead of Fastify's two (see requestLog).
    logController: new LogController({ disableRequestLogging: true }),
    // A hop count N believes the N right-most X-Forwarded-For entries' senders (what Fastify
    // does for a number; its types only take a function for that).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops: number) => (_addr: string, i: number) =>
              i < hops
          )(config.trustProxy)
        : config.trustProxy,
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    // Fastify's 10 s default fails start-up on a busy 2-core machine (swagger-ui loads its assets).
    pluginTimeout: 60_000,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializer({ checkAnswers: config.nodeEnv !== 'production' }));
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('lifecycle', { draining: false });
  // While draining, every answer ends its keep-alive connection: the client's next request
  // opens a new one, which the balancer sends to another instance.
  app.addHook('onRequest', async (_req, reply) => {
    if (app.lifecycle.draining) reply.header('connection', 'close');
  });
  const registeredRoutes: { method: string; url: string }[] = [];
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) registeredRoutes.push({ method, url: r.url });
  });
  app.setErrorHandler(errorHandler);
  await app.register(requestLog);

  await app.register(securityHeaders, {
    helmet: {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // Mantine sets style attributes and injects CSS variables at run time.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          // Call recordings play in the lead detail straight from the call tracker's host
          // (Ringba, Retreaver…), whichever it is; media cannot run script, and the global
          // Referrer-Policy (no-referrer) keeps our URLs from that host.
          mediaSrc: ["'self'", 'blob:', 'https:', 'http:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          frameSrc: ["'self'"],
          frameAncestors: ["'self'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
        },
      },
      crossOriginEmbedderPolicy: false,
    },
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Affiliate network portal API', version: '1' },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              'A session access token (JWT from /auth/v1/token), or on /api/v1 a personal API key (pk_…) within its scopes',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  // API_DOCS=false hides the browsable docs; the OpenAPI document itself stays internal.
  if (config.apiDocs) await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(metricsPlugin);
  await app.register(corsPlugin);

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  // Crawlers may index the sign-in page and nothing else (a real file, not the SPA's HTML).
  app.get('/robots.txt', { schema: { hide: true } }, async (_req, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(ROBOTS_TXT),
  );
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    if (app.lifecycle.draining) {
      return sendError(reply, 503, 'shutting_down', 'This instance is shutting down.');
    }
    try {
      await database.ping();
      return { status: 'ready', database: database.kind };
    } catch {
      return sendError(reply, 503, 'database_unavailable', 'The database does not answer.');
    }
  });

  // --- infrastructure plugins (storage, mail, auth) register here ---
  await app.register(inputGuards);
  await app.register(idempotencyPlugin);
  app.decorate('storage', deps.storage ?? createStorage(config));
  await app.register(multipart, { limits: MULTIPART_LIMITS });
  await app.register(filesRoutes, { prefix: '/files' });
  await app.register(mailPlugin);
  if (config.devMailbox) {
    await app.register(devMailboxRoutes);
    await app.register(devSinkRoutes);
  }
  decorateRateLimits(app);
  await app.register(authRoutes, { prefix: '/auth/v1' });

  // --- end infrastructure ---

  await app.register(
    async (api) => {
      await api.register(publicSettingsRoutes);
      // --- /api/v1 modules (me, admin, publisher, buyer) register here ---
      await api.register(meRoutes);
      await api.register(notificationsRoutes, { prefix: '/me' });
      await api.register(apiKeyRoutes, { prefix: '/me' });
      await api.register(adminRoutes, { prefix: '/admin' });
      await api.register(buyerRoutes, { prefix: '/buyer' });
      await api.register(publisherRoutes, { prefix: '/publisher' });
      // Live updates (issue 32): Server-Sent Events, the signed-in user's scope.
      await api.register(liveRoutes);
      // Call trackers' postbacks: authenticated by an integration key, never a bearer token.
      await api.register(ingestRoutes, { prefix: '/ingest' });
      // Signed documents (issue 33): the sealed PDF and the check of an uploaded copy.
      await api.register(documentFileRoutes, { prefix: '/documents' });

      // --- end /api/v1 modules ---
    },
    { prefix: '/api/v1' },
  );
  // The report rollups' queue, folded every second (reports also fold before they read).
  registerReportFold(app);
  registerReportWarmUp(app);
  // Webhooks and postbacks: the delivery worker and the log's retention.
  registerOutbound(app);
  // The fraud rules on calls as the postback endpoint writes them (issue 32).
  registerFraud(app);
  // Signed agreements about to expire: the 30, 7 and 1 day reminders.
  registerSignatureReminders(app);
  registerLive(app);

  const webRoot = deps.webRoot ?? defaultWebRoot;
  const hasWeb = existsSync(path.join(webRoot, 'index.html'));
  const entryPageOf = readEntryPages(webRoot);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      // `npm run build` writes .br and .gz beside each asset (scripts/precompress.ts): sent as
      // they are to browsers that accept them (/login: ~127 KB of JS instead of ~400 KB).
      preCompressed: true,
      setHeaders(res, filePath) {
        // Hashed assets never change; index.html must always be revalidated.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    const isApi = apiPrefixes.some((p) => url.startsWith(p)) || url === '/api';
    if (isApi || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return sendError(reply, 404, 'not_found', `No route for ${req.method} ${url}.`);
    }
    if (!hasWeb) {
      return reply
        .status(404)
        .type('text/plain')
        .send('The web app is not built yet: run `npm run build`.');
    }
    // A chunk the build no longer has (a tab opened before a deploy): a 404, not index.html,
    // so the app's import fails at once and shows its "Reload" message.
    if (url.startsWith('/assets/')) {
      return reply.status(404).header('cache-control', 'no-store').type('text/plain').send('');
    }
    // History fallback: every client route loads the SPA. Always revalidated, so a deploy's new
    // chunk names reach the next page load (sendFile would otherwise set its own max-age=0).
    reply.header('cache-control', 'no-cache');
    const page = entryPageOf(url.replace(/\/+$/, '') || '/');
    return reply.type('text/html; charset=utf-8').sendFile(page, { cacheControl: false });
  });

  return app;
}
