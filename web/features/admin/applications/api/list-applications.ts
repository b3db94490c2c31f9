import { useListQuery } from '@/lib/api-queries.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';

export type ApplicationListParams = EndpointQuery<typeof apiRoutes.admin.applications>;

/** Every admin applications query starts with this key; invalidate it after any change. */
export const applicationsKey = ['admin', 'applications'] as const;

/** GET /api/v1/admin/applications: non-draft applications with publisher and offer. */
export function useApplications(params: ApplicationListParams) {
  return useListQuery(applicationsKey, apiRoutes.admin.applications, params);
}
