import type { BulkLeadStatus, LeadFilter } from '@contract/lead-actions.ts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { useSend } from '@/lib/api-queries.ts';
import { apiRoutes, type QueryOf } from '@/lib/api-routes.ts';
import { leadsKey } from './list-leads.ts';

/**
 * GET /api/v1/admin/leads/totals: count of the leads matching the filter, their payout earned
 * (approved) and under review (pending), and how many are rejected.
 */
export function useLeadTotals(filter: QueryOf<typeof LeadFilter>) {
  return useQuery({
    queryKey: [...leadsKey, 'totals', filter],
    queryFn: ({ signal }) => apiCall(apiRoutes.admin.leadTotals, { query: filter, signal }),
  });
}

/** POST /api/v1/admin/leads/bulk-status (a dry run only counts; nothing is refreshed). */
export const useBulkLeadStatus = () => useSend(apiRoutes.admin.bulkLeadStatus, ['admin']);

/** The dry run of a bulk action: how many leads it would change. */
export const countBulkLeadStatus = (body: BulkLeadStatus) =>
  apiCall(apiRoutes.admin.bulkLeadStatus, { body: { ...body, dry_run: true } });
