import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { SortOrder } from '../../../../contract/list.ts';
import type { IoSort, PublisherIoList } from '../../../../contract/publisher.ts';
import { api } from '../../../lib/api-client.ts';
import { publisherKeys } from './keys.ts';

/** Query of the list (the contract's schema coerces strings; the web sends numbers). */
export type IosQuery = {
  page: number;
  page_size: number;
  /** Part of the offer title (any case). */
  q?: string;
  sort?: IoSort;
  order?: SortOrder;
};

export function listIos(query: IosQuery): Promise<PublisherIoList> {
  return api<PublisherIoList>('publisher/ios', { query });
}

/** IOs of the publisher's own approved applications, each with a signed download URL; searched and sorted on the server. */
export function useIos(query: IosQuery) {
  return useQuery({
    queryKey: publisherKeys.ios(query),
    queryFn: () => listIos(query),
    placeholderData: keepPreviousData,
  });
}
