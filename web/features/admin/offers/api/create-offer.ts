import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminOffer, CreateOffer } from '../../../../../contract/admin.ts';
import { apiCall } from '../../../../lib/api-client.ts';
import { apiRoutes } from '../../../../lib/api-routes.ts';
import { offersKey } from './list-offers.ts';

export function createOffer(body: CreateOffer): Promise<AdminOffer> {
  return apiCall(apiRoutes.admin.createOffer, { body });
}

/** POST /api/v1/admin/offers; refreshes every offer list (and the pickers built on them). */
export function useCreateOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOffer,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: offersKey }),
  });
}
