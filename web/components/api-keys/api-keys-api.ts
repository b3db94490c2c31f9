import type { ApiKeyList, CreateApiKeyBody, CreatedApiKey } from '@contract/api-keys.ts';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation, useGet, useSend } from '@/lib/api-queries.ts';
import { del, get, post } from '@/lib/api-routes.ts';

/**
 * The signed-in user's API keys (/api/v1/me/api-keys), for every role. Defined here rather
 * than in web/lib/api-routes.ts: that file is in the /login bundle, and only this screen calls
 * these.
 */
export const apiKeyRoutes = {
  list: get<ApiKeyList>('me/api-keys'),
  create: post<CreatedApiKey, unknown, CreateApiKeyBody>('me/api-keys'),
  revoke: (id: string) => del<null>(`me/api-keys/${encodeURIComponent(id)}`),
} as const;

export const apiKeysKey = ['me', 'api-keys'] as const;

/** GET /api/v1/me/api-keys: the keys that are not revoked, newest first. */
export const useApiKeys = () => useGet(apiKeysKey, apiKeyRoutes.list);

/** POST /api/v1/me/api-keys: answers the key, the only time it is shown. */
export const useCreateApiKey = () => useSend(apiKeyRoutes.create, apiKeysKey);

/** DELETE /api/v1/me/api-keys/:id: the key stops working at once. */
export const useRevokeApiKey = () =>
  useApiMutation((id: string) => apiCall(apiKeyRoutes.revoke(id)), apiKeysKey);
