import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../../contract/admin-common.ts';
import {
  AcknowledgeScriptBody,
  PendingScripts,
  PublisherOfferScript,
} from '../../../contract/scripts.ts';
import { currentUser } from '../../auth/guard.ts';
import { bearerDoc, errorReplies } from '../../http/route-helpers.ts';
import { routeKit } from '../../http/route-kit.ts';
import {
  acknowledgeScript,
  getPublisherOfferScript,
  listPendingScripts,
} from './scripts.service.ts';

/**
 * The publisher's side of offer scripts (issue 33), under /api/v1/publisher behind its role
 * guard: the script and its diff, the acknowledgement, the offers waiting for one. An offer the
 * publisher is not approved for is a 404, whatever it is.
 */
export const publisherScriptRoutes: FastifyPluginAsyncZod = async (app) => {
  const mine = routeKit(app, bearerDoc('publisher'), errorReplies(400, 401, 403));
  const db = app.db;
  mine.route('GET', '/scripts/pending', { reply: PendingScripts }, async (req) =>
    listPendingScripts({ db, publisherId: currentUser(req).id }),
  );
  mine.route(
    'GET',
    '/offers/:id/script',
    { params: IdParams, reply: PublisherOfferScript, errors: errorReplies(404) },
    async (req) =>
      getPublisherOfferScript({ db, publisherId: currentUser(req).id, offerId: req.params.id }),
  );
  mine.route(
    'POST',
    '/offers/:id/script/acknowledge',
    {
      params: IdParams,
      body: AcknowledgeScriptBody,
      reply: PublisherOfferScript,
      errors: errorReplies(404, 409),
    },
    async (req) => {
      const { id, email } = currentUser(req);
      return acknowledgeScript({
        db,
        publisher: { id, email },
        offerId: req.params.id,
        version: req.body.version,
      });
    },
  );
};
