import type { OfferList } from '@contract/admin.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

/** Up to 50 offers (active or not) whose title or vertical matches, for the leads pickers. */
export function searchOffers(q: string): Promise<OfferList> {
  return apiCall(apiRoutes.admin.offers, {
    query: { q: q || undefined, page: 1, page_size: 50, sort: 'title', order: 'asc' },
  });
}

/** GET /api/v1/admin/offers?q=: options (with their payout) for the offer pickers. */
export function useOfferOptions(q: string) {
  return useQuery({
    queryKey: ['admin', 'offers', 'options', q],
    queryFn: () => searchOffers(q),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
