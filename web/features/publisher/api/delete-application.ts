import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

/** Drops a draft the publisher walked away from (spec §4); the server sweeps any it misses. */
export function deleteDraftApplication(applicationId: string): Promise<void> {
  return apiCall(apiRoutes.publisher.deleteApplication(applicationId));
}
