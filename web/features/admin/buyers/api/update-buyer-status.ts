import type { UpdateBuyerStatus } from '@contract/admin.ts';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { buyersKey } from './list-buyers.ts';

/** PATCH /api/v1/admin/buyers/:id: Block / Unblock. */
export const useUpdateBuyerStatus = () =>
  useApiMutation(
    ({ id, status }: { id: string } & UpdateBuyerStatus) =>
      apiCall(apiRoutes.admin.updateBuyer(id), { body: { status } }),
    buyersKey,
  );
