import { useListQuery } from '@/lib/api-queries.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';

export type PublisherListParams = EndpointQuery<typeof apiRoutes.admin.publishers>;

/** Every admin publishers query starts with this key; invalidate it after any change. */
export const publishersKey = ['admin', 'publishers'] as const;

/** GET /api/v1/admin/publishers: one page, filtered and sorted on the server. */
export function usePublishers(params: PublisherListParams) {
  return useListQuery(publishersKey, apiRoutes.admin.publishers, params);
}
