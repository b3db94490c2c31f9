import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PayoutList } from '../../../../../contract/admin.ts';
import { api } from '../../../../lib/api-client.ts';

/** The payouts list's filters and sort (also what the CSV export takes). */
export type PayoutFilterParams = {
  sort: 'date' | 'amount';
  order: 'asc' | 'desc';
  publisher_id?: string;
  from?: string;
  to?: string;
};

export type PayoutListParams = PayoutFilterParams & { page: number; page_size: number };

/** Every admin payout query starts with this key. */
export const payoutsKey = ['admin', 'payouts'] as const;

export function listPayouts(params: PayoutListParams): Promise<PayoutList> {
  return api<PayoutList>('admin/payouts', { query: params });
}

/** GET /api/v1/admin/payouts: one page with publisher names, newest first by default. */
export function usePayouts(params: PayoutListParams) {
  return useQuery({
    queryKey: [...payoutsKey, 'list', params],
    queryFn: () => listPayouts(params),
    placeholderData: keepPreviousData,
  });
}
