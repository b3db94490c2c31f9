import type { ApprovedPublisherList } from '@contract/admin.ts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

/**
 * GET /api/v1/admin/approved-publishers: the publishers an offer's per-publisher payout can be
 * set for (the first 200 by name; the picker searches the rest).
 */
export function usePublisherChoices(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'publishers', 'approved', 'offer-payouts', q],
    queryFn: (): Promise<ApprovedPublisherList> =>
      apiCall(apiRoutes.admin.approvedPublishers, {
        query: { q: q || undefined, page: 1, page_size: 200 },
      }),
    enabled,
  });
}
