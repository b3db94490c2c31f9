import { IdParams } from '../../../contract/admin-common.ts';
import {
  CreateWebhookEndpoint,
  TestPostbackAnswer,
  TestWebhook,
  UpdateWebhookEndpoint,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
} from '../../../contract/outbound.ts';
import { getSettings } from '../../db/settings.ts';
import { adminDoc, errorReplies } from '../../http/route-helpers.ts';
import { kitPlugin } from '../../http/route-kit.ts';
import { deliveryListRoute, deliveryRoutes } from './deliveries.routes.ts';
import { outboundPolicyOf } from './safe-http.ts';
import { takeTestSend } from './test-sends.ts';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  testEndpoint,
  updateEndpoint,
} from './webhooks.service.ts';

/** /api/v1/admin/webhooks: the operator's signed webhook endpoints and their delivery log. */
export const adminWebhooksRoutes = kitPlugin(adminDoc, (admin, app) => {
  const db = app.db;
  admin.route('GET', '/webhooks', { reply: WebhookEndpointList }, async () =>
    listEndpoints({ db }),
  );
  admin.create(
    '/webhooks',
    {
      body: CreateWebhookEndpoint,
      reply: WebhookEndpointWithSecret.describe('The endpoint, with its secret shown this once'),
    },
    createEndpoint,
  );
  admin.route(
    'GET',
    '/webhooks/:id',
    { params: IdParams, reply: WebhookEndpoint, errors: errorReplies(404) },
    async (req) => getEndpoint({ db, id: req.params.id }),
  );
  admin.change(
    'PATCH',
    '/webhooks/:id',
    { params: IdParams, body: UpdateWebhookEndpoint, reply: WebhookEndpoint },
    updateEndpoint,
  );
  admin.remove('/webhooks/:id', { params: IdParams }, deleteEndpoint);
  admin.act(
    '/webhooks/:id/rotate-secret',
    { params: IdParams, reply: WebhookEndpointWithSecret },
    rotateSecret,
  );
  deliveryListRoute(admin, db, '/webhooks/:id/deliveries', (endpointId) => ({ endpointId }));
  deliveryRoutes(admin, db, '/webhook-deliveries');
  admin.route(
    'POST',
    '/webhooks/:id/test',
    {
      params: IdParams,
      body: TestWebhook,
      reply: TestPostbackAnswer.describe('What the endpoint answered a signed sample event'),
      errors: errorReplies(404, 429),
    },
    async (req, reply) => {
      await takeTestSend(req, reply);
      return testEndpoint({
        db,
        id: req.params.id,
        event: req.body.event,
        currency: (await getSettings(db)).currency,
        policy: outboundPolicyOf(app.config),
      });
    },
  );
});
