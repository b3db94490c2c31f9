import type { MarkRunPaid, RunSelection, VoidRun } from '@contract/money.ts';
import { useMutation } from '@tanstack/react-query';
import { apiCall, apiDownload } from '@/lib/api-client.ts';
import { useApiMutation, useListQuery } from '@/lib/api-queries.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';

/** Every admin money query starts with this key (under ['admin'], so a payout refreshes it). */
export const moneyKey = ['admin', 'money'] as const;

export type BalanceParams = EndpointQuery<typeof apiRoutes.admin.balances>;
export type RunParams = EndpointQuery<typeof apiRoutes.admin.runs>;

/** GET /admin/balances: one page of publishers' balances, largest owed first by default. */
export const useBalances = (params: BalanceParams) =>
  useListQuery([...moneyKey, 'balances'], apiRoutes.admin.balances, params);

/** GET /admin/payout-runs: one page of runs, newest first. */
export const useRuns = (params: RunParams) =>
  useListQuery([...moneyKey, 'runs'], apiRoutes.admin.runs, params);

/** What a run would pay (nothing is written). */
export const usePreviewRun = () =>
  useMutation({
    mutationFn: (body: RunSelection) => apiCall(apiRoutes.admin.previewRun, { body }),
  });

/** Confirms a run: payouts, balances and lists all refresh. */
export const useConfirmRun = () =>
  useApiMutation((body: RunSelection) => apiCall(apiRoutes.admin.confirmRun, { body }), ['admin']);

export const useMarkRunPaid = () =>
  useApiMutation(
    ({ id, body }: { id: string; body: MarkRunPaid }) =>
      apiCall(apiRoutes.admin.markRunPaid(id), { body }),
    ['admin'],
  );

export const useVoidRun = () =>
  useApiMutation(
    ({ id, body }: { id: string; body: VoidRun }) => apiCall(apiRoutes.admin.voidRun(id), { body }),
    ['admin'],
  );

/** The run's file for the bank: one row per publisher. */
export const useDownloadRunCsv = () =>
  useMutation({
    mutationFn: (id: string) =>
      apiDownload(apiRoutes.admin.runCsv(id), undefined as never, 'payout-run.csv'),
  });

/** A payout's statement (PDF or CSV), as the publisher gets it. */
export const useDownloadAdminStatement = () =>
  useMutation({
    mutationFn: ({ id, format }: { id: string; format: 'pdf' | 'csv' }) =>
      apiDownload(
        format === 'pdf' ? apiRoutes.admin.statementPdf(id) : apiRoutes.admin.statementCsv(id),
        undefined as never,
        `statement.${format}`,
      ),
  });
