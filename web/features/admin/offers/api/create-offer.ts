import type { CreateOffer } from '@contract/admin.ts';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { offersKey } from './list-offers.ts';

/** POST /api/v1/admin/offers; refreshes every offer list (and the pickers built on them). */
export const useCreateOffer = () =>
  useApiMutation((body: CreateOffer) => apiCall(apiRoutes.admin.createOffer, { body }), offersKey);
