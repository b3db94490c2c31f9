import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { BuyerList } from '../../../../../contract/admin.ts';
import { api } from '../../../../lib/api-client.ts';

export type BuyerListParams = {
  page: number;
  page_size: number;
  sort: 'created_at' | 'name' | 'email' | 'status';
  order: 'asc' | 'desc';
  q?: string;
  status?: 'active' | 'blocked';
};

export const buyersKey = ['admin', 'buyers'] as const;

export function listBuyers(params: BuyerListParams): Promise<BuyerList> {
  return api<BuyerList>('admin/buyers', { query: params });
}

/** GET /api/v1/admin/buyers: one page, filtered and sorted on the server. */
export function useBuyers(params: BuyerListParams) {
  return useQuery({
    queryKey: [...buyersKey, 'list', params],
    queryFn: () => listBuyers(params),
    placeholderData: keepPreviousData,
  });
}
