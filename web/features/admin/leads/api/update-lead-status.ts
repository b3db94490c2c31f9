import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminLead, UpdateLeadStatus } from '../../../../../contract/admin.ts';
import { apiCall } from '../../../../lib/api-client.ts';
import { apiRoutes } from '../../../../lib/api-routes.ts';

export function updateLeadStatus(id: string, body: UpdateLeadStatus): Promise<AdminLead> {
  return apiCall(apiRoutes.admin.updateLead(id), { body });
}

/** PATCH /api/v1/admin/leads/:id {status}. */
export function useUpdateLeadStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: { id: string } & UpdateLeadStatus) =>
      updateLeadStatus(vars.id, { status: vars.status }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
