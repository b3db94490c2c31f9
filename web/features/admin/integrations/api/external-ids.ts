import type { AttachExternalId } from '@contract/integrations.ts';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation, useListQuery } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { integrationsKey } from './list-integrations.ts';

/** GET /api/v1/admin/integrations/:id/external-ids: the tracker ids attached there. */
export function useExternalIds(integrationId: string, page: number) {
  return useListQuery(
    [...integrationsKey, integrationId, 'external-ids'],
    apiRoutes.admin.externalIds(integrationId),
    { page, page_size: 10 },
  );
}

/** PUT …/external-ids: attach a tracker's publisher or campaign id. */
export const useAttachExternalId = () =>
  useApiMutation(
    ({ integrationId, body }: { integrationId: string; body: AttachExternalId }) =>
      apiCall(apiRoutes.admin.attachExternalId(integrationId), { body }),
    integrationsKey,
  );

/** DELETE …/external-ids/:mappingId. */
export const useDetachExternalId = () =>
  useApiMutation(
    ({ integrationId, mappingId }: { integrationId: string; mappingId: string }) =>
      apiCall(apiRoutes.admin.detachExternalId(integrationId, mappingId)),
    integrationsKey,
  );
