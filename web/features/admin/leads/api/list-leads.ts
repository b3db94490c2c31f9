import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { LeadList } from '../../../../../contract/admin.ts';
import type { LeadStatus } from '../../../../../contract/roles.ts';
import { api } from '../../../../lib/api-client.ts';

export type LeadSort = 'timestamp' | 'payout' | 'call_duration';

/** The leads list's filters and sort (also what the CSV export takes). */
export type LeadFilterParams = {
  sort: LeadSort;
  order: 'asc' | 'desc';
  status?: LeadStatus;
  publisher_id?: string;
  offer_id?: string;
  /** `YYYY-MM-DD`, inclusive. */
  from?: string;
  /** `YYYY-MM-DD`, inclusive (the whole day). */
  to?: string;
};

export type LeadListParams = LeadFilterParams & { page: number; page_size: number };

/** Every admin lead query starts with this key. */
export const leadsKey = ['admin', 'leads'] as const;

export function listLeads(params: LeadListParams): Promise<LeadList> {
  return api<LeadList>('admin/leads', { query: params });
}

/** GET /api/v1/admin/leads: one page of all leads, filtered and sorted on the server. */
export function useLeads(params: LeadListParams) {
  return useQuery({
    queryKey: [...leadsKey, 'list', params],
    queryFn: () => listLeads(params),
    placeholderData: keepPreviousData,
  });
}
