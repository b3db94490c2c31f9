import type { BulkDecideApplications, DecideApplication } from '@contract/admin.ts';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

/**
 * PATCH /api/v1/admin/applications/:id (pending → approved or rejected). The decision shows in
 * applications, compliance, the dashboard counts and the publisher's detail, so every admin
 * query is refreshed.
 */
export const useDecideApplication = () =>
  useApiMutation(
    ({ id, ...body }: { id: string } & DecideApplication) =>
      apiCall(apiRoutes.admin.decideApplication(id), { body }),
    ['admin'],
  );

/** POST /api/v1/admin/applications/bulk: many pending applications, one decision and reason. */
export const useBulkDecideApplications = () =>
  useApiMutation(
    (body: BulkDecideApplications) => apiCall(apiRoutes.admin.bulkDecideApplications, { body }),
    ['admin'],
  );
