import { useSendTo } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

/** PATCH /api/v1/admin/leads/:id {status, reason, note}: a status set by hand, with why. */
export const useUpdateLeadStatus = () => useSendTo(apiRoutes.admin.updateLead, ['admin']);
