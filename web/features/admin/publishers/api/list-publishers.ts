import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PublisherList } from '../../../../../contract/admin.ts';
import type { PublisherStatus } from '../../../../../contract/roles.ts';
import { api } from '../../../../lib/api-client.ts';

export type PublisherListParams = {
  page: number;
  page_size: number;
  sort: 'created_at' | 'name' | 'email' | 'status';
  order: 'asc' | 'desc';
  q?: string;
  status?: PublisherStatus;
};

/** Every admin publisher query starts with this key; invalidate it after any change. */
export const publishersKey = ['admin', 'publishers'] as const;

export function listPublishers(params: PublisherListParams): Promise<PublisherList> {
  return api<PublisherList>('admin/publishers', { query: params });
}

/** GET /api/v1/admin/publishers: one page, filtered and sorted on the server. */
export function usePublishers(params: PublisherListParams) {
  return useQuery({
    queryKey: [...publishersKey, 'list', params],
    queryFn: () => listPublishers(params),
    placeholderData: keepPreviousData,
  });
}
