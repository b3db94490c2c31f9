import { useQuery } from '@tanstack/react-query';
import { apiCall, apiUpload } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { publisherKeys } from './keys.ts';

export const leadKey = (id: string) => [...publisherKeys.leads, 'detail', id] as const;

/** GET /api/v1/publisher/leads/:id: one of the publisher's own leads (another's is a 404). */
export function useLead(id: string) {
  return useQuery({
    queryKey: leadKey(id),
    queryFn: () => apiCall(apiRoutes.publisher.lead(id)),
    // Its recording is a signed link, new on every read: a read on window focus would restart
    // the player. The page re-reads after its own changes (disputes, status).
    refetchOnWindowFocus: false,
  });
}

/** POST /api/v1/publisher/leads/:id/disputes (multipart: `message`, optional `file`). */
export const useOpenDispute = () =>
  useApiMutation(({ id, message, file }: { id: string; message: string; file: File | null }) => {
    const form = new FormData();
    form.append('message', message);
    if (file) form.append('file', file, file.name);
    return apiUpload(apiRoutes.publisher.openDispute(id), form);
  }, publisherKeys.leads);

/** POST /api/v1/publisher/disputes/:id/messages. */
export const useReplyDispute = () =>
  useApiMutation(
    ({ id, message }: { id: string; message: string }) =>
      apiCall(apiRoutes.publisher.replyDispute(id), { body: { message } }),
    publisherKeys.leads,
  );
