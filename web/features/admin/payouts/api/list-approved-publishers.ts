import type { ApprovedPublisherList } from '@contract/admin.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

export function listApprovedPublishers(q: string): Promise<ApprovedPublisherList> {
  return apiCall(apiRoutes.admin.approvedPublishers, {
    query: { q: q || undefined, page: 1, page_size: 200 },
  });
}

/** GET /api/v1/admin/approved-publishers: the only publishers a payout may go to. */
export function useApprovedPublishers(q: string) {
  return useQuery({
    queryKey: ['admin', 'publishers', 'approved', q],
    queryFn: () => listApprovedPublishers(q),
    placeholderData: keepPreviousData,
  });
}
