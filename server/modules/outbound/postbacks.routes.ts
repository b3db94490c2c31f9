import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../../contract/admin-common.ts';
import {
  DeliveryList,
  DeliveryListQuery,
  PostbackSettings,
  PostbackTemplates,
  PutPostbackTemplates,
  SavedPostbackSettings,
  TestPostback,
  TestPostbackAnswer,
} from '../../../contract/outbound.ts';
import { currentUser } from '../../auth/guard.ts';
import { actorOf, adminDoc, bearerDoc, errorReplies } from '../../http/route-helpers.ts';
import { kitPlugin, routeKit } from '../../http/route-kit.ts';
import { deliveryListRoute, deliveryRoutes } from './deliveries.routes.ts';
import { listDeliveries } from './deliveries.service.ts';
import {
  getPostbackSettings,
  getPostbacks,
  putPostbackSettings,
  putPostbacks,
  testPostback,
} from './postbacks.service.ts';
import { outboundPolicyOf } from './safe-http.ts';
import { takeTestSend } from './test-sends.ts';

const errors = errorReplies(400, 401, 403);

/** /api/v1/publisher/postbacks: the signed-in publisher's own templates, Test and log. */
export const publisherPostbackRoutes: FastifyPluginAsyncZod = async (app) => {
  const mine = routeKit(app, bearerDoc('publisher'), errors);
  const db = app.db;
  const policy = outboundPolicyOf(app.config);
  mine.route('GET', '/postbacks', { reply: PostbackTemplates }, async (req) =>
    getPostbacks({ db, publisherId: currentUser(req).id }),
  );
  mine.route(
    'PUT',
    '/postbacks',
    { body: PutPostbackTemplates, reply: PostbackTemplates },
    async (req) => putPostbacks({ db, publisherId: currentUser(req).id, input: req.body }),
  );
  mine.route(
    'POST',
    '/postbacks/test',
    { body: TestPostback, reply: TestPostbackAnswer, errors: errorReplies(429) },
    async (req, reply) => {
      await takeTestSend(req, reply);
      return testPostback({ db, input: req.body, policy });
    },
  );
  mine.route(
    'GET',
    '/postback-deliveries',
    { query: DeliveryListQuery, reply: DeliveryList },
    async (req) =>
      listDeliveries({ db, owner: { publisherId: currentUser(req).id }, query: req.query }),
  );
  deliveryRoutes(mine, db, '/postback-deliveries', (req) => ({
    publisherId: currentUser(req).id,
  }));
};

/** The admin's side: a publisher's postbacks (per offer too), their log, the passable tags. */
export const adminPostbackRoutes = kitPlugin(adminDoc, (admin, app) => {
  const db = app.db;
  const policy = outboundPolicyOf(app.config);
  admin.route(
    'GET',
    '/publishers/:id/postbacks',
    { params: IdParams, reply: PostbackTemplates },
    async (req) => getPostbacks({ db, publisherId: req.params.id }),
  );
  admin.route(
    'PUT',
    '/publishers/:id/postbacks',
    { params: IdParams, body: PutPostbackTemplates, reply: PostbackTemplates },
    async (req) =>
      putPostbacks({ db, publisherId: req.params.id, input: req.body, actor: actorOf(req) }),
  );
  admin.route(
    'POST',
    '/publishers/:id/postbacks/test',
    {
      params: IdParams,
      body: TestPostback,
      reply: TestPostbackAnswer,
      errors: errorReplies(429),
    },
    async (req, reply) => {
      await takeTestSend(req, reply);
      return testPostback({ db, input: req.body, policy });
    },
  );
  deliveryListRoute(admin, db, '/publishers/:id/postback-deliveries', (publisherId) => ({
    publisherId,
  }));
  deliveryRoutes(admin, db, '/postback-deliveries');
  admin.route('GET', '/postback-settings', { reply: SavedPostbackSettings }, async () =>
    getPostbackSettings({ db }),
  );
  admin.route(
    'PUT',
    '/postback-settings',
    { body: PostbackSettings, reply: SavedPostbackSettings, errors: errorReplies(400) },
    async (req) => putPostbackSettings({ db, actor: actorOf(req), input: req.body }),
  );
});
