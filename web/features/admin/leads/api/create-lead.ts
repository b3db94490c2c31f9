import { useSend } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

/** POST /api/v1/admin/leads; leads feed the dashboard chart and publisher totals too. */
export const useCreateLead = () => useSend(apiRoutes.admin.createLead, ['admin']);
