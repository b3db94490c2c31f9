import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminPayout, CreatePayout } from '../../../../../contract/admin.ts';
import { apiCall } from '../../../../lib/api-client.ts';
import { apiRoutes } from '../../../../lib/api-routes.ts';

export function createPayout(body: CreatePayout): Promise<AdminPayout> {
  return apiCall(apiRoutes.admin.createPayout, { body });
}

/** POST /api/v1/admin/payouts; moves the dashboard's Total Payouts too, so all admin data refreshes. */
export function useCreatePayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPayout,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
