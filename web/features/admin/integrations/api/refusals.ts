import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation, useListQuery } from '@/lib/api-queries.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';
import { integrationsKey } from './list-integrations.ts';

export type RefusalListParams = EndpointQuery<typeof apiRoutes.admin.refusals>;

/** GET /api/v1/admin/integrations/refusals: refused postbacks, newest first. */
export function useRefusals(params: RefusalListParams) {
  return useListQuery([...integrationsKey, 'refusals'], apiRoutes.admin.refusals, params);
}

/** POST …/refusals/:id/replay; a new lead refreshes the leads list as well. */
export const useReplayRefusal = () =>
  useApiMutation((id: string) => apiCall(apiRoutes.admin.replayRefusal(id)), ['admin']);
