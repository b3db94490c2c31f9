import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { SortOrder } from '../../../../contract/list.ts';
import type { LeadSort, PublisherLeadList } from '../../../../contract/publisher.ts';
import type { LeadStatus } from '../../../../contract/roles.ts';
import { api } from '../../../lib/api-client.ts';
import { publisherKeys } from './keys.ts';

/** Query of the list (the contract's schema coerces strings; the web sends numbers). */
export type LeadsQuery = {
  page: number;
  page_size: number;
  status?: LeadStatus;
  /** First day included, YYYY-MM-DD (UTC). */
  from?: string;
  /** Last day included. */
  to?: string;
  /** Sorted on the server over all matching leads, then paged. */
  sort?: LeadSort;
  order?: SortOrder;
};

export function listLeads(query: LeadsQuery): Promise<PublisherLeadList> {
  return api<PublisherLeadList>('publisher/leads', { query });
}

/** The publisher's own leads, filtered by status and days, sorted (newest first by default). */
export function useLeads(query: LeadsQuery) {
  return useQuery({
    queryKey: publisherKeys.leads(query),
    queryFn: () => listLeads(query),
    placeholderData: keepPreviousData,
  });
}
