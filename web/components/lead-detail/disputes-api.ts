import { apiCall, apiUpload, fileForm } from '@/lib/api-client.ts';
import { useApiMutation, useListQuery } from '@/lib/api-queries.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';

/** Disputes and leads change together (accepting approves the lead): one key refreshes both. */
const refresh = ['admin'] as const;
export const disputesKey = ['admin', 'disputes'] as const;

/** GET /api/v1/admin/disputes: open disputes (or another status), latest activity first. */
export function useDisputes(params: EndpointQuery<typeof apiRoutes.admin.disputes>) {
  return useListQuery(disputesKey, apiRoutes.admin.disputes, params);
}

/** POST /api/v1/admin/disputes/:id/messages. */
export const useReplyDispute = () =>
  useApiMutation(
    ({ id, message }: { id: string; message: string }) =>
      apiCall(apiRoutes.admin.replyDispute(id), { body: { message } }),
    refresh,
  );

/** POST /api/v1/admin/disputes/:id/accept or /decline. */
export const useDecideDispute = () =>
  useApiMutation(
    ({ id, decision, message }: { id: string; decision: 'accept' | 'decline'; message: string }) =>
      decision === 'accept'
        ? apiCall(apiRoutes.admin.acceptDispute(id), {
            body: message ? { message } : {},
          })
        : apiCall(apiRoutes.admin.declineDispute(id), { body: { message } }),
    refresh,
  );

/** PUT /api/v1/admin/leads/:id/recording (multipart `file`: mp3). */
export const useUploadRecording = () =>
  useApiMutation(
    ({ id, file }: { id: string; file: File }) =>
      apiUpload(apiRoutes.admin.uploadRecording(id), fileForm(file)),
    refresh,
  );
