import type { OfferList, PublisherList } from '@contract/admin.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

/** The first 50 matches of a picker's search, in `sort` order. */
const pickerQuery = <S extends string>(q: string, sort: S) => ({
  q: q || undefined,
  page: 1,
  page_size: 50,
  sort,
  order: 'asc' as const,
});

/** A picker's matches, kept while the next search loads and fresh for 30 seconds. */
function usePickerSearch<T>(
  list: 'offers' | 'publishers',
  q: string,
  search: (q: string) => Promise<T>,
) {
  return useQuery({
    queryKey: ['admin', list, 'options', q],
    queryFn: () => search(q),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** Up to 50 offers (active or not) whose title or vertical matches, for the leads pickers. */
export function searchOffers(q: string): Promise<OfferList> {
  return apiCall(apiRoutes.admin.offers, { query: pickerQuery(q, 'title') });
}

/** Up to 50 publishers whose name or e-mail matches, for the leads pickers. */
export function searchPublishers(q: string): Promise<PublisherList> {
  return apiCall(apiRoutes.admin.publishers, { query: pickerQuery(q, 'name') });
}

/** GET /api/v1/admin/offers?q=: options (with their payout) for the offer pickers. */
export const useOfferOptions = (q: string) => usePickerSearch('offers', q, searchOffers);

/** GET /api/v1/admin/publishers?q=: options for the publisher pickers. */
export const usePublisherOptions = (q: string) =>
  usePickerSearch('publishers', q, searchPublishers);
