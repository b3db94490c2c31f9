import { useSend, useSendTo } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

/**
 * PATCH /api/v1/admin/applications/:id (pending → approved or rejected). The decision shows in
 * applications, compliance, the dashboard counts and the publisher's detail, so every admin
 * query is refreshed.
 */
export const useDecideApplication = () => useSendTo(apiRoutes.admin.decideApplication, ['admin']);

/** POST /api/v1/admin/applications/bulk: many pending applications, one decision and reason. */
export const useBulkDecideApplications = () =>
  useSend(apiRoutes.admin.bulkDecideApplications, ['admin']);
