import { useSend } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { offersKey } from './list-offers.ts';

/** POST /api/v1/admin/offers; refreshes every offer list (and the pickers built on them). */
export const useCreateOffer = () => useSend(apiRoutes.admin.createOffer, offersKey);
