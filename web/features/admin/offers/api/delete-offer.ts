import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { offersKey } from './list-offers.ts';

/** DELETE /api/v1/admin/offers/:id; the server refuses (409) an offer with applications or leads. */
export const useDeleteOffer = () =>
  useApiMutation((id: string) => apiCall(apiRoutes.admin.deleteOffer(id)), offersKey);
