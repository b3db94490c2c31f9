import type { CampaignSortKey } from '../../../contract/buyer.ts';
import type { SortOrder } from '../../../contract/list.ts';

/** The table's sort: its columns are named like the server's sort keys. */
export type CampaignSort = { columnAccessor: CampaignSortKey; direction: SortOrder };

/** `YYYY-MM-DD` in the user's locale, read as a calendar day (never shifted by the time zone). */
export function formatDay(day: string | null | undefined): string {
  if (!day) return '—';
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return day;
  return new Date(y, m - 1, d).toLocaleDateString();
}
