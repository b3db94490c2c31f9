import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import type { PayoutFilterParams } from './list-payouts.ts';

/** GET /api/v1/admin/payouts.csv with the list's filters and sort, saved as a file. */
export function exportPayoutsCsv(filters: PayoutFilterParams): Promise<void> {
  return apiDownload(apiRoutes.admin.payoutsCsv, filters, 'payouts.csv');
}

export function useExportPayoutsCsv() {
  return useMutation({ mutationFn: exportPayoutsCsv });
}
