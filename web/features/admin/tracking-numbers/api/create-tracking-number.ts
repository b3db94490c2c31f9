import { useSend } from '@/lib/api-queries.ts';
import { trackingNumberRoutes, trackingNumbersKey } from './tracking-number-routes.ts';

/** POST /api/v1/admin/tracking-numbers: answers the number as kept (E.164). */
export const useCreateTrackingNumber = () =>
  useSend(trackingNumberRoutes.create, trackingNumbersKey);
