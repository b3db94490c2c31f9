import { useListQuery } from '@/lib/api-queries.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';

export type IntegrationListParams = EndpointQuery<typeof apiRoutes.admin.integrations>;

/** Every integrations query starts with this key (list, tracker ids, refused calls). */
export const integrationsKey = ['admin', 'integrations'] as const;

/** GET /api/v1/admin/integrations: one page, newest first by default. */
export function useIntegrations(params: IntegrationListParams) {
  return useListQuery(integrationsKey, apiRoutes.admin.integrations, params);
}
