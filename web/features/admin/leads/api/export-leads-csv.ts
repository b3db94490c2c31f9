import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import type { LeadFilterParams } from './list-leads.ts';

/** GET /api/v1/admin/leads.csv with the list's filters and sort, saved as a file. */
export function exportLeadsCsv(filters: LeadFilterParams): Promise<void> {
  return apiDownload(apiRoutes.admin.leadsCsv, filters, 'leads.csv');
}

export function useExportLeadsCsv() {
  return useMutation({ mutationFn: exportLeadsCsv });
}
