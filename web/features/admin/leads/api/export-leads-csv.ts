import { useMutation } from '@tanstack/react-query';
import { downloadApiFile } from '../../../../components/download-file.ts';
import type { LeadFilterParams } from './list-leads.ts';

/** GET /api/v1/admin/leads.csv with the list's filters and sort, saved as a file. */
export function exportLeadsCsv(filters: LeadFilterParams): Promise<void> {
  return downloadApiFile('admin/leads.csv', filters, 'leads.csv');
}

export function useExportLeadsCsv() {
  return useMutation({ mutationFn: exportLeadsCsv });
}
