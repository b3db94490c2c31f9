import type { PublisherDetail } from '@contract/admin.ts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { publishersKey } from './list-publishers.ts';

export const publisherKey = (id: string) => [...publishersKey, 'detail', id] as const;

export function getPublisher(id: string): Promise<PublisherDetail> {
  return apiCall(apiRoutes.admin.publisher(id));
}

/** GET /api/v1/admin/publishers/:id: profile, agreement, applications, totals, history. */
export function usePublisher(id: string) {
  return useQuery({ queryKey: publisherKey(id), queryFn: () => getPublisher(id) });
}
