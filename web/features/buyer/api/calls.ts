import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { apiCall, apiDownload } from '@/lib/api-client.ts';
import { useListQuery, useSendTo } from '@/lib/api-queries.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';
import { unlessPrefetched } from '@/lib/prefetch.ts';

/** Prefix of the buyer's calls and dashboard queries; a return refreshes both. */
export const callsKey = ['buyer', 'calls'] as const;

export type CallsQuery = EndpointQuery<typeof apiRoutes.buyer.calls>;

/** GET /api/v1/buyer/calls: the calls delivered to the buyer's campaigns, newest first. */
export const useCalls = (query: CallsQuery) => useListQuery(callsKey, apiRoutes.buyer.calls, query);

/** GET /api/v1/buyer/dashboard's query (the hook's, and the first load's prefetch). */
export const buyerDashboardQuery = queryOptions({
  queryKey: [...callsKey, 'dashboard'],
  queryFn: ({ signal }) => apiCall(apiRoutes.buyer.dashboard, { signal }),
  refetchOnMount: unlessPrefetched,
});

/** GET /api/v1/buyer/dashboard: spend against the budgets, calls delivered and billable. */
export const useBuyerDashboard = () => useQuery(buyerDashboardQuery);

/** POST /api/v1/buyer/calls/:id/return {reason, note?}: `mutate({ id, reason })`. */
export const useReturnCall = () => useSendTo(apiRoutes.buyer.returnCall, callsKey);

/** GET /api/v1/buyer/calls.csv: every call of the list, saved as a file. */
export const useExportCallsCsv = () =>
  useMutation({ mutationFn: () => apiDownload(apiRoutes.buyer.callsCsv, {}, 'calls.csv') });
