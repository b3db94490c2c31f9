import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ApplicationList } from '../../../../../contract/admin.ts';
import { api } from '../../../../lib/api-client.ts';

export type ApplicationListParams = {
  page: number;
  page_size: number;
  sort: 'created_at' | 'status';
  order: 'asc' | 'desc';
  q?: string;
  status?: 'pending' | 'approved' | 'rejected';
};

/** Every admin application query starts with this key. */
export const applicationsKey = ['admin', 'applications'] as const;

export function listApplications(params: ApplicationListParams): Promise<ApplicationList> {
  return api<ApplicationList>('admin/applications', { query: params });
}

/** GET /api/v1/admin/applications: non-draft applications with publisher and offer. */
export function useApplications(params: ApplicationListParams) {
  return useQuery({
    queryKey: [...applicationsKey, 'list', params],
    queryFn: () => listApplications(params),
    placeholderData: keepPreviousData,
  });
}
