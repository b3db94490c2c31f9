import { useMutation } from '@tanstack/react-query';
import { downloadApiFile } from '../../../../components/download-file.ts';
import type { PayoutFilterParams } from './list-payouts.ts';

/** GET /api/v1/admin/payouts.csv with the list's filters and sort, saved as a file. */
export function exportPayoutsCsv(filters: PayoutFilterParams): Promise<void> {
  return downloadApiFile('admin/payouts.csv', filters, 'payouts.csv');
}

export function useExportPayoutsCsv() {
  return useMutation({ mutationFn: exportPayoutsCsv });
}
