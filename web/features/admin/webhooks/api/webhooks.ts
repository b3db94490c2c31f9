import type {
  CreateWebhookEndpoint,
  TestPostbackAnswer,
  TestWebhook,
  UpdateWebhookEndpoint,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from '@contract/outbound.ts';
import { deliveryRoutes } from '@/components/deliveries/deliveries-api.ts';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation, useGet } from '@/lib/api-queries.ts';
import { del, get, patch, post } from '@/lib/api-routes.ts';

const enc = encodeURIComponent;

/**
 * /api/v1/admin/webhooks, typed beside its hooks (as the API keys' endpoints: only this screen
 * calls them, and web/lib/api-routes.ts is in the /login bundle).
 */
export const webhookRoutes = {
  list: get<{ items: WebhookEndpoint[] }>('admin/webhooks'),
  create: post<WebhookEndpointWithSecret, unknown, CreateWebhookEndpoint>('admin/webhooks'),
  update: (id: string) =>
    patch<WebhookEndpoint, unknown, UpdateWebhookEndpoint>(`admin/webhooks/${enc(id)}`),
  remove: (id: string) => del<null>(`admin/webhooks/${enc(id)}`),
  rotate: (id: string) =>
    post<WebhookEndpointWithSecret>(`admin/webhooks/${enc(id)}/rotate-secret`),
  test: (id: string) =>
    post<TestPostbackAnswer, unknown, TestWebhook>(`admin/webhooks/${enc(id)}/test`),
} as const;

export const webhooksKey = ['admin', 'webhooks'] as const;

/** An endpoint's delivery log (its deliveries' detail and replay live under webhook-deliveries). */
export const endpointDeliveries = (id: string) =>
  deliveryRoutes(
    [...webhooksKey, id, 'deliveries'],
    `admin/webhooks/${enc(id)}/deliveries`,
    'admin/webhook-deliveries',
  );

/** GET /api/v1/admin/webhooks: every endpoint, newest first. */
export const useWebhooks = () => useGet(webhooksKey, webhookRoutes.list);

/** POST /api/v1/admin/webhooks: answers the endpoint with its secret, the only time it is shown. */
export const useCreateWebhook = () =>
  useApiMutation(
    (body: CreateWebhookEndpoint) => apiCall(webhookRoutes.create, { body }),
    webhooksKey,
  );

/** PATCH: turn an endpoint on (which also lifts a pause) or off. */
export const useUpdateWebhook = () =>
  useApiMutation(
    ({ id, body }: { id: string; body: UpdateWebhookEndpoint }) =>
      apiCall(webhookRoutes.update(id), { body }),
    webhooksKey,
  );

/** DELETE: the endpoint and its pending deliveries go. */
export const useDeleteWebhook = () =>
  useApiMutation((id: string) => apiCall(webhookRoutes.remove(id)), webhooksKey);

/** A new secret, shown once; the old one keeps signing for 24 hours. */
export const useRotateWebhookSecret = () =>
  useApiMutation((id: string) => apiCall(webhookRoutes.rotate(id)), webhooksKey);

/** Test: a signed sample of one event type, sent now; answers what the endpoint said. */
export const useTestWebhook = () =>
  useApiMutation(
    ({ id, body }: { id: string; body: TestWebhook }) => apiCall(webhookRoutes.test(id), { body }),
    webhooksKey,
  );
