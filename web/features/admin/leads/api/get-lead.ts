import { useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { leadsKey } from './list-leads.ts';

export const leadKey = (id: string) => [...leadsKey, 'detail', id] as const;

/** GET /api/v1/admin/leads/:id: the call, its timeline, recording, disputes and history. */
export function useLead(id: string) {
  return useQuery({
    queryKey: leadKey(id),
    queryFn: () => apiCall(apiRoutes.admin.lead(id)),
    // Its recording is a signed link, new on every read: a read on window focus would restart
    // the player. The page re-reads after its own changes (disputes, status).
    refetchOnWindowFocus: false,
  });
}
