import type { UpdateLeadStatus } from '@contract/admin.ts';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

/** PATCH /api/v1/admin/leads/:id {status, reason, note}: a status set by hand, with why. */
export const useUpdateLeadStatus = () =>
  useApiMutation(
    ({ id, ...body }: { id: string } & UpdateLeadStatus) =>
      apiCall(apiRoutes.admin.updateLead(id), { body }),
    ['admin'],
  );
