import { IdParams } from '../../../contract/admin-common.ts';
import {
  CreateWebhookEndpoint,
  UpdateWebhookEndpoint,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
} from '../../../contract/outbound.ts';
import { adminDoc, errorReplies } from '../../http/route-helpers.ts';
import { kitPlugin } from '../../http/route-kit.ts';
import { deliveryListRoute, deliveryRoutes } from './deliveries.routes.ts';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
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
});
