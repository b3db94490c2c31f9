import type { UpdateOffer } from '@contract/admin.ts';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

/**
 * PATCH /api/v1/admin/offers/:id. Titles show in applications, compliance and leads too, so
 * all admin lists are refreshed.
 */
export const useUpdateOffer = () =>
  useApiMutation(
    ({ id, body }: { id: string; body: UpdateOffer }) =>
      apiCall(apiRoutes.admin.updateOffer(id), { body }),
    ['admin'],
  );
