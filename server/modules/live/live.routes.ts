import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { LiveMessage } from '../../../contract/live.ts';
import { currentUser, requireAuth } from '../../auth/guard.ts';
import { AppError } from '../../errors.ts';
import { bearerDoc, errorReplies } from '../../http/route-helpers.ts';
import type { LiveStream } from './live.hub.ts';
import {
  countersOf,
  eventsAfter,
  type LiveScope,
  leadsOfEvents,
  recentLeads,
  viewOf,
} from './live.service.ts';

/** Catch-up rows a reconnect reads at most (5 minutes of a busy network fit). */
const CATCH_UP = 5000;

const DESCRIPTION = `Server-Sent Events of the signed-in user's calls (the admin: all; a publisher: their own; a buyer: their campaigns' calls, the caller's last 4 digits and what each billed as \`payout\`, never the publisher). Send \`Accept: text/event-stream\`. A fresh stream starts with \`snapshot\` (the last 100 calls of today and the counters); \`Last-Event-ID\` resumes instead with the \`leads\` written after it in the last 5 minutes. Then \`leads\` (the calls a batch of writes created or changed) and \`counters\` (today's figures, at most once a second), a comment every 15 s, and \`end\` when the session ends (sign-out, block) or the server restarts. At most LIVE_MAX_STREAMS streams per user per instance (429 beyond).`;

const scopeOf = (user: { id: string; role: string }): LiveScope =>
  user.role === 'admin'
    ? { kind: 'all' }
    : user.role === 'publisher'
      ? { kind: 'publisher', publisherId: user.id }
      : user.role === 'buyer'
        ? { kind: 'buyer', buyerId: user.id }
        : { kind: 'none' };

/** `Last-Event-ID` as a timeline id; anything else is a fresh start. */
const lastEventIdOf = (h: string | string[] | undefined): number | undefined => {
  const v = Array.isArray(h) ? h[0] : h;
  return v && /^\d{1,15}$/.test(v.trim()) ? Number(v.trim()) : undefined;
};

/** GET /api/v1/live (issue 32). */
export const liveRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireAuth);
  app.get(
    '/live',
    {
      schema: {
        ...bearerDoc('live'),
        description: DESCRIPTION,
        response: errorReplies(401, 403, 406, 429),
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      if (!(req.headers.accept ?? '').includes('text/event-stream')) {
        throw new AppError(
          'not_acceptable',
          'This is an event stream: ask for it with "Accept: text/event-stream".',
          { status: 406 },
        );
      }
      const hub = app.liveHub;
      const max = app.config.live.maxStreams;
      if (hub.countOf(user.id) >= max) {
        reply.header('retry-after', '10');
        throw new AppError(
          'rate_limited',
          `You already have ${max} live streams open (other tabs or windows of the portal): close one and try again.`,
        );
      }
      const lastEventId = lastEventIdOf(req.headers['last-event-id']);
      const admin = user.role === 'admin';
      const scope = scopeOf(user);
      reply.hijack();
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        // nginx and the like: pass each message at once.
        'x-accel-buffering': 'no',
      });
      reply.raw.write('retry: 2000\n\n');
      const stream: LiveStream = {
        userId: user.id,
        sessionId: user.sessionId,
        admin,
        scope,
        raw: reply.raw,
        lastId: 0,
        held: [],
        closed: false,
      };
      req.raw.on('close', () => hub.remove(stream));
      try {
        const cursor = await hub.add(stream);
        const first: { m: LiveMessage; id?: number }[] = [];
        if (lastEventId === undefined) {
          const [leads, counters] = await Promise.all([
            recentLeads(app.db, scope, admin),
            countersOf(app.db, scope, admin),
          ]);
          first.push({ m: { event: 'snapshot', data: { leads, counters } }, id: cursor });
        } else {
          const rows =
            scope.kind === 'none'
              ? []
              : await eventsAfter(app.db, {
                  afterId: lastEventId,
                  upToId: cursor,
                  limit: CATCH_UP,
                  scope,
                  recentOnly: true,
                });
          if (rows.length > 0) {
            first.push({
              m: { event: 'leads', data: { leads: leadsOfEvents(rows, viewOf(scope)) } },
            });
          }
          const counters = await countersOf(app.db, scope, admin);
          first.push({
            m: { event: 'counters', data: counters },
            id: Math.max(cursor, lastEventId),
          });
        }
        hub.start(stream, first);
      } catch (err) {
        req.log.error({ err }, 'live: the stream could not start');
        hub.remove(stream);
        reply.raw.end();
      }
    },
  );
};
