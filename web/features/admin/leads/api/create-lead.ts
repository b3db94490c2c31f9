import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminLead, CreateLead } from '../../../../../contract/admin.ts';
import { apiCall } from '../../../../lib/api-client.ts';
import { apiRoutes } from '../../../../lib/api-routes.ts';

export function createLead(body: CreateLead): Promise<AdminLead> {
  return apiCall(apiRoutes.admin.createLead, { body });
}

/** POST /api/v1/admin/leads; leads feed the dashboard chart and publisher totals too. */
export function useCreateLead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createLead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
