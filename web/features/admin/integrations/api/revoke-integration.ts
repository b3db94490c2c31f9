import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { integrationsKey } from './list-integrations.ts';

/** POST /api/v1/admin/integrations/:id/revoke: the key stops working at once. */
export const useRevokeIntegration = () =>
  useApiMutation((id: string) => apiCall(apiRoutes.admin.revokeIntegration(id)), integrationsKey);
