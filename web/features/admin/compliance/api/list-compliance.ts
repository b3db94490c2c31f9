import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ComplianceList, ComplianceSubmission } from '../../../../../contract/admin.ts';
import { api } from '../../../../lib/api-client.ts';

export type ComplianceListParams = {
  page: number;
  page_size: number;
  sort: 'created_at';
  order: 'asc' | 'desc';
  q?: string;
  status?: 'pending' | 'approved' | 'rejected';
};

/** Every admin compliance query starts with this key. */
export const complianceKey = ['admin', 'compliance'] as const;

export function listCompliance(params: ComplianceListParams): Promise<ComplianceList> {
  return api<ComplianceList>('admin/compliance', { query: params });
}

/** GET /api/v1/admin/compliance: submissions with signed file URLs (valid 3600 s). */
export function useCompliance(params: ComplianceListParams) {
  return useQuery({
    queryKey: [...complianceKey, 'list', params],
    queryFn: () => listCompliance(params),
    placeholderData: keepPreviousData,
  });
}

/**
 * Fresh signed URLs for one submission (the list's expire after an hour): asks the list for
 * that publisher's submissions and picks this one. Throws when it is gone.
 */
export async function getFreshSubmission(
  submission: Pick<ComplianceSubmission, 'id' | 'publisher_email'>,
): Promise<ComplianceSubmission> {
  const page = await listCompliance({
    page: 1,
    page_size: 200,
    sort: 'created_at',
    order: 'desc',
    q: submission.publisher_email,
  });
  const found = page.items.find((s) => s.id === submission.id);
  if (!found) throw new Error('This submission is no longer available.');
  return found;
}
