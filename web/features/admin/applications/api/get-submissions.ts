import { useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

/** GET /api/v1/admin/applications/:id/submissions: the application and every submission. */
export function useApplicationSubmissions(id: string | null) {
  return useQuery({
    queryKey: ['admin', 'applications', 'submissions', id],
    queryFn: () => apiCall(apiRoutes.admin.applicationSubmissions(id!)),
    enabled: id !== null,
  });
}
