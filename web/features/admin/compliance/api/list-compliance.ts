import type { ComplianceSubmission } from '@contract/admin.ts';
import { apiCall } from '@/lib/api-client.ts';
import { useListQuery } from '@/lib/api-queries.ts';
import { apiRoutes, type EndpointQuery } from '@/lib/api-routes.ts';

export type ComplianceListParams = EndpointQuery<typeof apiRoutes.admin.compliance>;

/** Every admin compliance query starts with this key. */
export const complianceKey = ['admin', 'compliance'] as const;

/** GET /api/v1/admin/compliance: submissions with signed file URLs (valid 3600 s). */
export function useCompliance(params: ComplianceListParams) {
  return useListQuery(complianceKey, apiRoutes.admin.compliance, params);
}

/**
 * Fresh signed URLs for one submission (the list's expire after an hour): asks the list for
 * that publisher's submissions and picks this one. Throws when it is gone.
 */
export async function getFreshSubmission(
  submission: Pick<ComplianceSubmission, 'id' | 'publisher_email'>,
): Promise<ComplianceSubmission> {
  const page = await apiCall(apiRoutes.admin.compliance, {
    query: {
      page: 1,
      page_size: 200,
      sort: 'created_at',
      order: 'desc',
      q: submission.publisher_email,
    },
  });
  const found = page.items.find((s) => s.id === submission.id);
  if (!found) throw new Error('This submission is no longer available.');
  return found;
}
