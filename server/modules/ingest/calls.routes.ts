import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IngestAnswer } from '../../../contract/integrations.ts';
import { sendError } from '../../http/error-handler.ts';
import { deleteOldRefusals, ingestCall, USAGE_FLUSH_MS, UsageCounter } from './ingest.service.ts';

/** A postback is small; anything larger is not a call event. */
const INGEST_BODY_LIMIT = 64 * 1024;
/** Refused calls past their retention are swept this often. */
export const REFUSAL_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Keyed by the app's database handle (the same object in the root app and this plugin). */
const usageByDb = new WeakMap<object, UsageCounter>();

/** Writes the pending usage counts now (tests, and the close of the server). */
export async function flushIngestUsage(app: FastifyInstance): Promise<void> {
  await usageByDb.get(app.db)?.flush(app.db);
}

const doc = {
  tags: ['ingest'],
  description:
    'A call event from a call tracker, authenticated by the integration key (x-api-key header or key parameter). Answers {id,status}.',
  response: { 200: IngestAnswer },
};

/**
 * /api/v1/ingest/calls: call trackers post call events here (GET pixel or POST JSON/form).
 * No bearer token counts on this path: only an integration key, checked by the service.
 */
export const ingestRoutes: FastifyPluginAsyncZod = async (app) => {
  const usage = new UsageCounter();
  usageByDb.set(app.db, usage);

  // Trackers that cannot send JSON post a form; parsed here only (the rest of the API is JSON).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: INGEST_BODY_LIMIT },
    (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  const handle = async (req: FastifyRequest, reply: FastifyReply) => {
    const outcome = await ingestCall({
      db: app.db,
      usage,
      req: {
        method: req.method,
        query: (req.query ?? {}) as Record<string, unknown>,
        body: req.method === 'POST' ? req.body : null,
        headers: req.headers,
        ip: req.ip,
      },
    });
    if (outcome.status === 200 && 'answer' in outcome) return outcome.answer;
    const { code, message, details } = outcome as Exclude<typeof outcome, { answer: unknown }>;
    return sendError(reply, outcome.status, code, message, details);
  };

  app.get('/calls', { schema: doc }, handle);
  app.post('/calls', { schema: doc, bodyLimit: INGEST_BODY_LIMIT }, handle);

  // Usage counts go to the integrations' rows in batches; refused calls expire.
  let timers: NodeJS.Timeout[] = [];
  let running: Promise<unknown> = Promise.resolve();
  const flush = () => {
    running = usage
      .flush(app.db)
      .catch((err: unknown) => app.log.warn({ err }, 'ingest usage flush failed'));
  };
  const sweep = () => {
    running = deleteOldRefusals({ db: app.db })
      .then((n) => {
        if (n > 0) app.log.info({ deleted: n }, 'removed expired refused calls');
      })
      .catch((err: unknown) => app.log.warn({ err }, 'refused call sweep failed'));
  };
  app.addHook('onReady', async () => {
    timers = [setInterval(flush, USAGE_FLUSH_MS), setInterval(sweep, REFUSAL_SWEEP_INTERVAL_MS)];
    for (const t of timers) t.unref();
  });
  app.addHook('onClose', async () => {
    for (const t of timers) clearInterval(t);
    timers = [];
    await running;
    await usage.flush(app.db).catch(() => {});
  });
};
