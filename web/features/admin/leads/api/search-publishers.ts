import type { PublisherList } from '@contract/admin.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

/** Up to 50 publishers whose name or e-mail matches, for the leads pickers. */
export function searchPublishers(q: string): Promise<PublisherList> {
  return apiCall(apiRoutes.admin.publishers, {
    query: { q: q || undefined, page: 1, page_size: 50, sort: 'name', order: 'asc' },
  });
}

/** GET /api/v1/admin/publishers?q=: options for the publisher pickers. */
export function usePublisherOptions(q: string) {
  return useQuery({
    queryKey: ['admin', 'publishers', 'options', q],
    queryFn: () => searchPublishers(q),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
