import type { UpdateIntegration } from '@contract/integrations.ts';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { integrationsKey } from './list-integrations.ts';

/** PATCH /api/v1/admin/integrations/:id: name, allowed sources, parameter names. */
export const useUpdateIntegration = () =>
  useApiMutation(
    ({ id, body }: { id: string; body: UpdateIntegration }) =>
      apiCall(apiRoutes.admin.updateIntegration(id), { body }),
    integrationsKey,
  );
