import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminApplication, DecideApplication } from '../../../../../contract/admin.ts';
import { api } from '../../../../lib/api-client.ts';

export function decideApplication(id: string, body: DecideApplication): Promise<AdminApplication> {
  return api<AdminApplication>(`admin/applications/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body,
  });
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
