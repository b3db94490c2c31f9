import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { SortOrder } from '../../../../contract/list.ts';
import type { PayoutSort, PublisherPayoutList } from '../../../../contract/publisher.ts';
import { api } from '../../../lib/api-client.ts';
import { publisherKeys } from './keys.ts';

/** Query of the list (the contract's schema coerces strings; the web sends numbers). */
export type PayoutsQuery = {
  page: number;
  page_size: number;
  sort?: PayoutSort;
  order?: SortOrder;
};

export function listPayouts(query: PayoutsQuery): Promise<PublisherPayoutList> {
  return api<PublisherPayoutList>('publisher/payouts', { query });
}

/** The publisher's own payouts, sorted on the server (newest first by default). */
export function usePayouts(query: PayoutsQuery) {
  return useQuery({
    queryKey: publisherKeys.payouts(query),
    queryFn: () => listPayouts(query),
    placeholderData: keepPreviousData,
  });
}
