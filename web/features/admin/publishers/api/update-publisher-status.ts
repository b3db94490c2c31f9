import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminPublisher, UpdatePublisherStatus } from '../../../../../contract/admin.ts';
import { apiCall } from '../../../../lib/api-client.ts';
import { apiRoutes } from '../../../../lib/api-routes.ts';

export function updatePublisherStatus(
  id: string,
  body: UpdatePublisherStatus,
): Promise<AdminPublisher> {
  return apiCall(apiRoutes.admin.updatePublisher(id), { body });
}

/**
 * PATCH /api/v1/admin/publishers/:id. A status change moves the dashboard counts, the payout
 * form's approved-publisher list and the audit history too, so every admin query is refreshed.
 */
export function useUpdatePublisherStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: { id: string } & UpdatePublisherStatus) =>
      updatePublisherStatus(vars.id, { status: vars.status }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
