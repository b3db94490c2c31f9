import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminLead, CreateLead } from '../../../../../contract/admin.ts';
import { api } from '../../../../lib/api-client.ts';

export function createLead(body: CreateLead): Promise<AdminLead> {
  return api<AdminLead>('admin/leads', { method: 'POST', body });
}

/** POST /api/v1/admin/leads; leads feed the dashboard chart and publisher totals too. */
export function useCreateLead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createLead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
