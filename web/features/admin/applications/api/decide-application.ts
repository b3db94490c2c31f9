import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminApplication, DecideApplication } from '../../../../../contract/admin.ts';
import { apiCall } from '../../../../lib/api-client.ts';
import { apiRoutes } from '../../../../lib/api-routes.ts';

export function decideApplication(id: string, body: DecideApplication): Promise<AdminApplication> {
  return apiCall(apiRoutes.admin.decideApplication(id), { body });
}

/**
 * PATCH /api/v1/admin/applications/:id (pending → approved or rejected). The decision shows in
 * applications, compliance, the dashboard counts and the publisher's detail, so every admin
 * query is refreshed.
 */
export function useDecideApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: { id: string } & DecideApplication) =>
      decideApplication(vars.id, { status: vars.status }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
