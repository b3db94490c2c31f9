import type { CreateTrackingNumber } from '@contract/integrations.ts';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { trackingNumberRoutes, trackingNumbersKey } from './tracking-number-routes.ts';

/** POST /api/v1/admin/tracking-numbers: answers the number as kept (E.164). */
export const useCreateTrackingNumber = () =>
  useApiMutation(
    (body: CreateTrackingNumber) => apiCall(trackingNumberRoutes.create, { body }),
    trackingNumbersKey,
  );
