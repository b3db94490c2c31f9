import type { CreatePayout } from '@contract/admin.ts';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

/** POST /api/v1/admin/payouts; moves the dashboard's Total Payouts too, so all admin data refreshes. */
export const useCreatePayout = () =>
  useApiMutation(
    (body: CreatePayout) => apiCall(apiRoutes.admin.createPayout, { body }),
    ['admin'],
  );
