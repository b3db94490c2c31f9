import {
  type AdminReportQuery,
  isSubIdGroup,
  type ReportSettings,
  reportGroupLabels,
  type SavedReportSettings,
  subIdGroups,
} from '../../../contract/reports.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { CsvCell } from '../../db/csv.ts';
import type { ListRead } from '../../db/list-query.ts';
import { getSettings, networkTimeZone } from '../../db/settings.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../audit/index.ts';
import { saveSettingsSection } from '../settings/index.ts';
import { reportCsv } from './report-csv.ts';
import { buildReport, NETWORK_OWNER, type Report } from './reports.queries.ts';

/** The network's report: every lead, in the network's time zone. */
export async function getAdminReport(opts: ListRead<AdminReportQuery>): Promise<Report> {
  const tz = await networkTimeZone(opts.db);
  const { group } = opts.query;
  let tag: string | undefined;
  if (isSubIdGroup(group)) {
    tag = (await getReportSettings({ db: opts.db })).sub_id_tags[subIdGroups.indexOf(group)];
    if (!tag) {
      throw new AppError(
        'validation_failed',
        `${reportGroupLabels[group]} is not set: mark a tracker tag as ${group} in Settings → Sub-ids in reports.`,
        { details: { group: [`${reportGroupLabels[group]} is not set.`] } },
      );
    }
  }
  return buildReport(opts.db, {
    owner: NETWORK_OWNER,
    tz,
    query: opts.query,
    ...(tag && { tag }),
  });
}

/** The same report as CSV lines (the screen's rows, totals row last). */
export async function adminReportCsv(opts: ListRead<AdminReportQuery>): Promise<CsvCell[][]> {
  return reportCsv(await getAdminReport(opts), { revenue: true });
}

/** The tracker tag of each sub-id, five entries ('' where a sub-id is not set). */
export async function getReportSettings(opts: { db: DbOrTx }): Promise<SavedReportSettings> {
  const { reportSubIdTags } = await getSettings(opts.db);
  return { sub_id_tags: subIdGroups.map((_, i) => reportSubIdTags[i] ?? '') };
}

/** Marks the tracker tags reports group by as sub1–sub5 (audited). */
export async function putReportSettings(opts: {
  db: Db;
  actor: Actor;
  input: ReportSettings;
}): Promise<SavedReportSettings> {
  const tags = subIdGroups.map((_, i) => opts.input.sub_id_tags[i] ?? '');
  const named = tags.filter(Boolean);
  if (new Set(named).size !== named.length) {
    throw new AppError('validation_failed', 'Each tag can be one sub-id only.', {
      details: { sub_id_tags: ['Each tag can be one sub-id only.'] },
    });
  }
  return saveSettingsSection({
    ...opts,
    what: 'report_sub_ids',
    read: (tx) => getReportSettings({ db: tx }),
    set: { reportSubIdTags: tags },
    after: { sub_id_tags: tags },
  });
}
