import { useListQuery } from '@/lib/api-queries.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';
import { publisherKeys } from './keys.ts';

export type LeadsQuery = EndpointQuery<typeof apiRoutes.publisher.leads>;

/** The publisher's own leads, filtered by status and days, sorted (newest first by default). */
export function useLeads(query: LeadsQuery) {
  return useListQuery(publisherKeys.leads, apiRoutes.publisher.leads, query);
}
