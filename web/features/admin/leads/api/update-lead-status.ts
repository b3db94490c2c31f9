import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminLead, UpdateLeadStatus } from '../../../../../contract/admin.ts';
import { api } from '../../../../lib/api-client.ts';

export function updateLeadStatus(id: string, body: UpdateLeadStatus): Promise<AdminLead> {
  return api<AdminLead>(`admin/leads/${encodeURIComponent(id)}`, { method: 'PATCH', body });
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
