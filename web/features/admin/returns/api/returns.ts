import { useListQuery, useSendTo } from '@/lib/api-queries.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';

export type ReturnListParams = EndpointQuery<typeof apiRoutes.admin.returns>;

/** Every admin returns query starts with this key; a decision refreshes it. */
export const returnsKey = ['admin', 'returns'] as const;

/** GET /api/v1/admin/returns: the buyers' returns of calls, newest first (issue 31). */
export const useReturns = (params: ReturnListParams) =>
  useListQuery(returnsKey, apiRoutes.admin.returns, params);

/** POST /api/v1/admin/returns/:id/accept | decline {note?}: `mutate({ id, note })`. */
export const useDecideReturn = (decision: 'accept' | 'decline') =>
  useSendTo(apiRoutes.admin.decideReturn(decision), returnsKey);
