import type { ReportSettings, SavedReportSettings } from '@contract/reports.ts';
import {
  type AdminReportGroup,
  isSubIdGroup,
  reportGroupLabels,
  subIdGroups,
} from '@contract/reports.ts';
import { documentHooks } from '@/lib/api-queries.ts';

/**
 * /api/v1/admin/report-settings: the tracker tags reports group by as sub1–sub5. Typed here (as
 * the bell's endpoints): Admin → Settings marks them, Admin → Reports offers them.
 */
const reportSettings = documentHooks<SavedReportSettings, ReportSettings>('admin/report-settings', [
  'admin',
  'report-settings',
]);

export const useReportSettings = reportSettings.useGet;
export const useSaveReportSettings = reportSettings.useSave;

/** The tag sub-id `group` reads ('' when not set). */
export const subIdTag = (tags: readonly string[] | undefined, group: AdminReportGroup) =>
  isSubIdGroup(group) ? (tags?.[subIdGroups.indexOf(group)] ?? '') : '';

/** A grouping's name in the Group by list: a sub-id names its tag ("Sub 1 (utm_source)"). */
export function groupOptionLabel(tags: readonly string[] | undefined, group: AdminReportGroup) {
  const tag = subIdTag(tags, group);
  return tag ? `${reportGroupLabels[group]} (${tag})` : reportGroupLabels[group];
}
