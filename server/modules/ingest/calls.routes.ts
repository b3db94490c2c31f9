import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IngestAnswer } from '../../../contract/integrations.ts';
import { AppError } from '../../errors.ts';
import { sendError } from '../../http/error-handler.ts';
import { registerJob } from '../../jobs/runtime.ts';
import {
  deleteOldRefusals,
  ingestCall,
  RefusalGuard,
  USAGE_FLUSH_MS,
  UsageCounter,
} from './ingest.service.ts';

/** A postback is small; anything larger is not a call event. */
const INGEST_BODY_LIMIT = 64 * 1024;
/** A call event is flat or a few levels deep; a deeper body is refused before it is parsed. */
export const MAX_BODY_DEPTH = 32;
/** Refused calls past their retention (or past the per-integration cap) are swept this often. */
export const REFUSAL_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** Requests without a valid key are summed up in the log this often (they are not stored). */
const UNAUTHORIZED_REPORT_MS = 60 * 1000;

/** Keyed by the app's database handle (the same object in the root app and this plugin). */
const usageByDb = new WeakMap<object, UsageCounter>();

/** Writes the pending usage counts now (tests, and the close of the server). */
export async function flushIngestUsage(app: FastifyInstance): Promise<void> {
  await usageByDb.get(app.db)?.flush(app.db);
}

/** How deep `text` (JSON) nests arrays and objects, counted without parsing it. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return null;
  const depth = jsonDepth(text);
  if (depth > MAX_BODY_DEPTH) {
    throw new AppError(
      'validation_failed',
      `The body nests ${depth} levels deep; a call event may nest at most ${MAX_BODY_DEPTH}.`,
      { status: 400 },
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('validation_failed', 'The body is not valid JSON.', { status: 400 });
  }
}

const raw = new WeakMap<FastifyRequest, { text: string; form: boolean }>();

/** What a tracker that runs the answer as TwiML gets back (Twilio's `<Dial action>`): hang up. */
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

const doc = {
  tags: ['ingest'],
  description:
    'A call event from a call tracker, authenticated by the integration key (x-api-key header or key parameter) and, when the integration has one, its signature. Answers {id,status}; a Twilio <Dial action> request (DialCallStatus) is answered with an empty TwiML <Response/>.',
  response: { 200: IngestAnswer },
};

/**
 * /api/v1/ingest/calls: call trackers post call events here (GET pixel, or POST JSON, a form,
 * or JSON sent as text/plain; PUT and PATCH as POST). No bearer token counts on this path: only
 * an integration key, checked by the service.
 */
export const ingestRoutes: FastifyPluginAsyncZod = async (app) => {
  const usage = new UsageCounter();
  const guard = new RefusalGuard();
  usageByDb.set(app.db, usage);

  // The raw body is kept for signatures; JSON depth is bounded before parsing (issue 26).
  const form = (text: string) => Object.fromEntries(new URLSearchParams(text));
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: INGEST_BODY_LIMIT },
    (req, body, done) => {
      raw.set(req, { text: body as string, form: true });
      done(null, form(body as string));
    },
  );
  app.addContentTypeParser(
    ['application/json', 'text/plain'],
    { parseAs: 'string', bodyLimit: INGEST_BODY_LIMIT },
    (req, body, done) => {
      const text = body as string;
      const isForm = !/^\s*[[{]/.test(text) && text.includes('=');
      raw.set(req, { text, form: isForm });
      try {
        done(null, isForm ? form(text) : parseJsonBody(text));
      } catch (err) {
        done(err as Error, undefined);
      }
    },
  );

  const handle = async (req: FastifyRequest, reply: FastifyReply) => {
    const body = raw.get(req);
    const outcome = await ingestCall({
      db: app.db,
      usage,
      guard,
      req: {
        method: req.method,
        query: (req.query ?? {}) as Record<string, unknown>,
        // PUT and PATCH carry a body as POST does (Ringba lets a pixel use either).
        body: req.method === 'GET' ? null : (req.body ?? null),
        rawBody: body?.text ?? '',
        form: body?.form ?? false,
        headers: req.headers,
        ip: req.ip,
        url: `${app.config.publicUrl}${req.url}`,
      },
    });
    if (outcome.status === 200 && 'answer' in outcome) {
      if (outcome.twiml) return reply.type('text/xml; charset=utf-8').send(EMPTY_TWIML);
      return outcome.answer;
    }
    const { code, message, details } = outcome as Exclude<typeof outcome, { answer: unknown }>;
    if (outcome.retryAfter) reply.header('retry-after', String(outcome.retryAfter));
    return sendError(reply, outcome.status, code, message, details);
  };

  app.get('/calls', { schema: doc }, handle);
  // Ringba's pixels may use GET, POST, PUT or PATCH (its Pixels page); each reads the same way.
  for (const method of ['post', 'put', 'patch'] as const) {
    app[method]('/calls', { schema: doc, bodyLimit: INGEST_BODY_LIMIT }, handle);
  }

  // Refused calls expire, and no integration keeps more than its cap: once per period across
  // every instance.
  registerJob(app, {
    name: 'ingest-refusal-sweep',
    scope: 'cluster',
    everyMs: REFUSAL_SWEEP_INTERVAL_MS,
    checkEveryMs: 5 * 60 * 1000,
    run: ({ db }) => deleteOldRefusals({ db }),
  });

  // Usage counts go to the integrations' rows in batches (per instance: each has its own), on
  // while the instance drains, and once more on close.
  registerJob(app, {
    name: 'ingest-usage-flush',
    scope: 'instance',
    everyMs: USAGE_FLUSH_MS,
    whileDraining: true,
    run: ({ db }) => usage.flush(db),
    onStop: ({ db }) => usage.flush(db),
  });

  registerJob(app, {
    name: 'ingest-unauthorized-report',
    scope: 'instance',
    everyMs: UNAUTHORIZED_REPORT_MS,
    whileDraining: true,
    run: async ({ log }) => {
      const counts = guard.unauthorized;
      if (counts.size === 0) return;
      guard.unauthorized = new Map();
      const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 5);
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      log.warn(
        { total, addresses: counts.size, top: Object.fromEntries(top) },
        'ingest: requests without a valid integration key (not stored)',
      );
    },
  });
};
