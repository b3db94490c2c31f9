import type { CreateLead } from '@contract/admin.ts';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

/** POST /api/v1/admin/leads; leads feed the dashboard chart and publisher totals too. */
export const useCreateLead = () =>
  useApiMutation((body: CreateLead) => apiCall(apiRoutes.admin.createLead, { body }), ['admin']);
