import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { trackingNumberRoutes, trackingNumbersKey } from './tracking-number-routes.ts';

/** DELETE /api/v1/admin/tracking-numbers/:id. */
export const useDeleteTrackingNumber = () =>
  useApiMutation((id: string) => apiCall(trackingNumberRoutes.remove(id)), trackingNumbersKey);
