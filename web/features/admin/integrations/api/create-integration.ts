import { useSend } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { integrationsKey } from './list-integrations.ts';

/** POST /api/v1/admin/integrations: answers the new key, the only time it is shown. */
export const useCreateIntegration = () =>
  useSend(apiRoutes.admin.createIntegration, integrationsKey);
