import type {
  PostbackTemplates,
  PutPostbackTemplates,
  TestPostback,
  TestPostbackAnswer,
} from '@contract/outbound.ts';
import { useMutation } from '@tanstack/react-query';
import { type DeliveryRoutes, deliveryRoutes } from '@/components/deliveries/deliveries-api.ts';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation, useGet } from '@/lib/api-queries.ts';
import type { Endpoint } from '@/lib/api-routes.ts';

/**
 * Whose postbacks a screen edits: the signed-in publisher's (Profile → Postbacks) or, for an
 * admin, one publisher's (per offer too). Typed here, beside the hooks, as the API keys' are.
 */
export type PostbackOwner = { kind: 'self' } | { kind: 'admin'; publisherId: string };

export type PostbackRoutes = {
  key: readonly unknown[];
  get: Endpoint<PostbackTemplates>;
  put: Endpoint<PostbackTemplates, unknown, PutPostbackTemplates>;
  test: Endpoint<TestPostbackAnswer, unknown, TestPostback>;
  deliveries: DeliveryRoutes;
};

export function postbackRoutes(owner: PostbackOwner): PostbackRoutes {
  const base =
    owner.kind === 'self'
      ? 'publisher'
      : `admin/publishers/${encodeURIComponent(owner.publisherId)}`;
  const key =
    owner.kind === 'self'
      ? (['publisher', 'postbacks'] as const)
      : (['admin', 'publishers', owner.publisherId, 'postbacks'] as const);
  return {
    key,
    get: { method: 'GET', path: `${base}/postbacks` } as PostbackRoutes['get'],
    put: { method: 'PUT', path: `${base}/postbacks` } as PostbackRoutes['put'],
    test: { method: 'POST', path: `${base}/postbacks/test` } as PostbackRoutes['test'],
    deliveries: deliveryRoutes(
      [...key, 'deliveries'],
      `${base}/postback-deliveries`,
      owner.kind === 'self' ? 'publisher/postback-deliveries' : 'admin/postback-deliveries',
    ),
  };
}

/** The templates, whether they are paused, and the tags a template may pass. */
export const usePostbacks = (r: PostbackRoutes) => useGet(r.key, r.get);

/** Replaces the templates (a save also resumes paused postbacks). */
export const useSavePostbacks = (r: PostbackRoutes) =>
  useApiMutation((body: PutPostbackTemplates) => apiCall(r.put, { body }), r.key);

/** Fires a sample of one template and answers what the receiver said. */
export const useTestPostback = (r: PostbackRoutes) =>
  useMutation({ mutationFn: (body: TestPostback) => apiCall(r.test, { body }) });
