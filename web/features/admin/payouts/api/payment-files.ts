import type { PaymentFileFormat, PaymentFileQuery } from '@contract/payment-files.ts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiCall, apiDownload } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { moneyKey } from './money.ts';

/** GET /admin/payout-runs/:id/files: the run's payouts per method and the files it has. */
export const useRunFiles = (runId: string | null) =>
  useQuery({
    queryKey: [...moneyKey, 'runs', runId, 'files'],
    queryFn: () => apiCall(apiRoutes.admin.runFiles(runId!)),
    enabled: runId !== null,
  });

/** Saves one payment file of a run (a 409 names the publishers the file cannot carry). */
export const useDownloadPaymentFile = () =>
  useMutation({
    mutationFn: ({
      runId,
      format,
      query,
      fileName,
    }: {
      runId: string;
      format: PaymentFileFormat;
      query: PaymentFileQuery;
      fileName: string;
    }) => apiDownload(apiRoutes.admin.runFile(runId, format), query, fileName),
  });
