import type { BulkDecidePublishers, UpdatePublisherStatus } from '@contract/admin.ts';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

/**
 * PATCH /api/v1/admin/publishers/:id. A status change moves the dashboard counts, the payout
 * form's approved-publisher list and the audit history too, so every admin query is refreshed.
 */
export const useUpdatePublisherStatus = () =>
  useApiMutation(
    ({ id, ...body }: { id: string } & UpdatePublisherStatus) =>
      apiCall(apiRoutes.admin.updatePublisher(id), { body }),
    ['admin'],
  );

/** POST /api/v1/admin/publishers/bulk: many pending publishers, one decision and reason. */
export const useBulkDecidePublishers = () =>
  useApiMutation(
    (body: BulkDecidePublishers) => apiCall(apiRoutes.admin.bulkDecidePublishers, { body }),
    ['admin'],
  );
