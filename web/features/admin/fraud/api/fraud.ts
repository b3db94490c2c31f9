import type { FraudRuleName, UpdateFraudRule } from '@contract/fraud.ts';
import { useQuery } from '@tanstack/react-query';
import { apiCall, fileForm } from '@/lib/api-client.ts';
import { useApiMutation, useListQuery, useSend } from '@/lib/api-queries.ts';
import type { EndpointQuery } from '@/lib/api-routes.ts';
import { fraudKey, fraudRoutes } from '@/lib/fraud-routes.ts';

/** GET /api/v1/admin/fraud-flags: the queue, one status, newest first. */
export const useFraudFlags = (query: EndpointQuery<typeof fraudRoutes.flags>) =>
  useListQuery(fraudKey, fraudRoutes.flags, query);

/** Bulk confirm (the calls are rejected with the reason) and clear; both refresh the leads too. */
export const useConfirmFlags = () => useSend(fraudRoutes.confirm, ['admin']);
export const useClearFlags = () => useSend(fraudRoutes.clear, ['admin']);

/** GET /api/v1/admin/blocked-callers. */
export const useBlockedCallers = (query: EndpointQuery<typeof fraudRoutes.blocked>) =>
  useListQuery(fraudKey, fraudRoutes.blocked, query);
export const useUnblock = () =>
  useApiMutation((id: string) => apiCall(fraudRoutes.unblock(id)), fraudKey);
/** A CSV of number or prefix, reason, expires_at: all rows or none. */
export const useImportBlocked = () =>
  useApiMutation(
    (file: File) => apiCall(fraudRoutes.importBlocked, { body: fileForm(file) }),
    fraudKey,
  );

/** The rules with their thresholds, and the save of one. */
export const useFraudRules = () =>
  useQuery({
    queryKey: [...fraudKey, 'rules'],
    queryFn: ({ signal }) => apiCall(fraudRoutes.rules, { signal }),
  });
export const useSaveRule = () =>
  useApiMutation(
    ({ rule, ...body }: UpdateFraudRule & { rule: FraudRuleName }) =>
      apiCall(fraudRoutes.saveRule(rule), { body }),
    fraudKey,
  );
