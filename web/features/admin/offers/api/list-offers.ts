import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { OfferList } from '../../../../../contract/admin.ts';
import type { OfferStatus } from '../../../../../contract/roles.ts';
import { api } from '../../../../lib/api-client.ts';

export type OfferSort = 'created_at' | 'title' | 'vertical' | 'payout' | 'status';

export type OfferListParams = {
  page: number;
  page_size: number;
  sort: OfferSort;
  order: 'asc' | 'desc';
  q?: string;
  status?: OfferStatus;
};

/** Every admin offer query starts with this key; invalidate it after any offer change. */
export const offersKey = ['admin', 'offers'] as const;

export function listOffers(params: OfferListParams): Promise<OfferList> {
  return api<OfferList>('admin/offers', { query: params });
}

/** GET /api/v1/admin/offers: one page, searched, filtered and sorted on the server. */
export function useOffers(params: OfferListParams) {
  return useQuery({
    queryKey: [...offersKey, 'list', params],
    queryFn: () => listOffers(params),
    placeholderData: keepPreviousData,
  });
}
