import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../../lib/api-client.ts';
import { apiRoutes } from '../../../../lib/api-routes.ts';
import { offersKey } from './list-offers.ts';

export function deleteOffer(id: string): Promise<void> {
  return apiCall(apiRoutes.admin.deleteOffer(id));
}

/** DELETE /api/v1/admin/offers/:id; the server refuses (409) an offer with applications or leads. */
export function useDeleteOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteOffer,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: offersKey }),
  });
}
