import type { Campaign } from '../../../contract/buyer.ts';

/** Columns the campaigns table sorts by. */
export type CampaignSortKey =
  | 'name'
  | 'goal'
  | 'target_audience'
  | 'location'
  | 'budget'
  | 'start_date'
  | 'end_date'
  | 'created_at';

export type CampaignSort = { columnAccessor: CampaignSortKey; direction: 'asc' | 'desc' };

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** `YYYY-MM-DD` in the user's locale, read as a calendar day (never shifted by the time zone). */
export function formatDay(day: string | null | undefined): string {
  if (!day) return '—';
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return day;
  return new Date(y, m - 1, d).toLocaleDateString();
}

/** Campaigns whose name, goal, audience or location contain the search text (any case). */
export function filterCampaigns(items: Campaign[], search: string): Campaign[] {
  const needle = search.trim().toLocaleLowerCase();
  if (!needle) return items;
  return items.filter((c) =>
    [c.name, c.goal, c.target_audience, c.location].some((v) =>
      v?.toLocaleLowerCase().includes(needle),
    ),
  );
}

/** Sorted copy; empty values (no budget, no date) always go last, whatever the direction. */
export function sortCampaigns(items: Campaign[], sort: CampaignSort): Campaign[] {
  const key = sort.columnAccessor;
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...items].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    if (x === null || x === undefined || x === '') return y === null || y === '' ? 0 : 1;
    if (y === null || y === undefined || y === '') return -1;
    if (typeof x === 'number' && typeof y === 'number') return (x - y) * sign;
    return collator.compare(String(x), String(y)) * sign;
  });
}
