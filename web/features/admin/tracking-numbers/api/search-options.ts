import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

/** A choice of a search select: the id and how the admin knows it. */
export type PickOption = { value: string; label: string };

/** GET /api/v1/admin/publishers?q=: the first 20 publishers whose name or e-mail matches. */
export function usePublisherPicks(q: string) {
  const query = useQuery({
    queryKey: ['admin', 'publishers', 'picks', q],
    queryFn: ({ signal }) =>
      apiCall(apiRoutes.admin.publishers, {
        query: { q: q || undefined, page: 1, page_size: 20, sort: 'name', order: 'asc' },
        signal,
      }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const options: PickOption[] = (query.data?.items ?? []).map((p) => ({
    value: p.id,
    label: p.name ? `${p.name} (${p.email})` : p.email,
  }));
  return { options, isFetching: query.isFetching };
}

/** GET /api/v1/admin/offers?q=: the first 20 offers whose title or vertical matches. */
export function useOfferPicks(q: string) {
  const query = useQuery({
    queryKey: ['admin', 'offers', 'picks', q],
    queryFn: ({ signal }) =>
      apiCall(apiRoutes.admin.offers, {
        query: { q: q || undefined, page: 1, page_size: 20, sort: 'title', order: 'asc' },
        signal,
      }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const options: PickOption[] = (query.data?.items ?? []).map((o) => ({
    value: o.id,
    label: o.status === 'inactive' ? `${o.title} (inactive)` : o.title,
  }));
  return { options, isFetching: query.isFetching };
}
