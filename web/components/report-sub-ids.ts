import type { ReportSettings, SavedReportSettings } from '@contract/reports.ts';
import {
  type AdminReportGroup,
  isSubIdGroup,
  reportGroupLabels,
  subIdGroups,
} from '@contract/reports.ts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { useApiMutation } from '@/lib/api-queries.ts';
import type { Endpoint } from '@/lib/api-routes.ts';

/**
 * /api/v1/admin/report-settings: the tracker tags reports group by as sub1–sub5. Typed here (as
 * the bell's endpoints): Admin → Settings marks them, Admin → Reports offers them.
 */
const routes = {
  get: { method: 'GET', path: 'admin/report-settings' } as Endpoint<SavedReportSettings>,
  put: { method: 'PUT', path: 'admin/report-settings' } as Endpoint<
    SavedReportSettings,
    unknown,
    ReportSettings
  >,
};
const key = ['admin', 'report-settings'] as const;

export const useReportSettings = () =>
  useQuery({ queryKey: key, queryFn: ({ signal }) => apiCall(routes.get, { signal }) });

export const useSaveReportSettings = () =>
  useApiMutation((body: ReportSettings) => apiCall(routes.put, { body }), key);

/** The tag sub-id `group` reads ('' when not set). */
export const subIdTag = (tags: readonly string[] | undefined, group: AdminReportGroup) =>
  isSubIdGroup(group) ? (tags?.[subIdGroups.indexOf(group)] ?? '') : '';

/** A grouping's name in the Group by list: a sub-id names its tag ("Sub 1 (utm_source)"). */
export function groupOptionLabel(tags: readonly string[] | undefined, group: AdminReportGroup) {
  const tag = subIdTag(tags, group);
  return tag ? `${reportGroupLabels[group]} (${tag})` : reportGroupLabels[group];
}
