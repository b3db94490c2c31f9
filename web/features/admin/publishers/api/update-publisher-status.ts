import { useSend, useSendTo } from '@/lib/api-queries.ts';
import { apiRoutes } from '@/lib/api-routes.ts';

/**
 * PATCH /api/v1/admin/publishers/:id. A status change moves the dashboard counts, the payout
 * form's approved-publisher list and the audit history too, so every admin query is refreshed.
 */
export const useUpdatePublisherStatus = () => useSendTo(apiRoutes.admin.updatePublisher, ['admin']);

/** POST /api/v1/admin/publishers/bulk: many pending publishers, one decision and reason. */
export const useBulkDecidePublishers = () =>
  useSend(apiRoutes.admin.bulkDecidePublishers, ['admin']);
