import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminBuyer, UpdateBuyerStatus } from '../../../../../contract/admin.ts';
import { apiCall } from '../../../../lib/api-client.ts';
import { apiRoutes } from '../../../../lib/api-routes.ts';
import { buyersKey } from './list-buyers.ts';

export function updateBuyerStatus(id: string, body: UpdateBuyerStatus): Promise<AdminBuyer> {
  return apiCall(apiRoutes.admin.updateBuyer(id), { body });
}

/** PATCH /api/v1/admin/buyers/:id: Block / Unblock. */
export function useUpdateBuyerStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: { id: string } & UpdateBuyerStatus) =>
      updateBuyerStatus(vars.id, { status: vars.status }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: buyersKey }),
  });
}
