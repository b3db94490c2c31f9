import { useListQuery } from '@/lib/api-queries.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';

export type LeadListParams = EndpointQuery<typeof apiRoutes.admin.leads>;
/** The leads list's filters and sort (also what the CSV export takes). */
export type LeadFilterParams = EndpointQuery<typeof apiRoutes.admin.leadsCsv>;

/** Every admin leads query starts with this key; invalidate it after any change. */
export const leadsKey = ['admin', 'leads'] as const;

/** GET /api/v1/admin/leads: one page of all leads, filtered and sorted on the server. */
export function useLeads(params: LeadListParams) {
  return useListQuery(leadsKey, apiRoutes.admin.leads, params);
}
