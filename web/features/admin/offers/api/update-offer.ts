import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminOffer, UpdateOffer } from '../../../../../contract/admin.ts';
import { apiCall } from '../../../../lib/api-client.ts';
import { apiRoutes } from '../../../../lib/api-routes.ts';

export function updateOffer(id: string, body: UpdateOffer): Promise<AdminOffer> {
  return apiCall(apiRoutes.admin.updateOffer(id), { body });
}

/**
 * PATCH /api/v1/admin/offers/:id. Titles show in applications, compliance and leads too, so
 * all admin lists are refreshed.
 */
export function useUpdateOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: { id: string; body: UpdateOffer }) => updateOffer(vars.id, vars.body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
