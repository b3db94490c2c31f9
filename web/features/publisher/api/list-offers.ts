import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { SortOrder } from '../../../../contract/list.ts';
import type { OfferSort, PublisherOfferList } from '../../../../contract/publisher.ts';
import { api } from '../../../lib/api-client.ts';
import { publisherKeys } from './keys.ts';

/** Query of the list (the contract's schema coerces strings; the web sends numbers). */
export type OffersQuery = {
  page: number;
  page_size: number;
  search?: string;
  sort?: OfferSort;
  order?: SortOrder;
};

export function listOffers(query: OffersQuery): Promise<PublisherOfferList> {
  return api<PublisherOfferList>('publisher/offers', { query });
}

/** Active offers with this publisher's application status; the previous page stays while paging. */
export function useOffers(query: OffersQuery) {
  return useQuery({
    queryKey: publisherKeys.offerList(query),
    queryFn: () => listOffers(query),
    placeholderData: keepPreviousData,
  });
}
