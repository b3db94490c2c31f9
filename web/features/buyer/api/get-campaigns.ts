import { useQuery } from '@tanstack/react-query';
import type { Campaign, CampaignList } from '../../../../contract/buyer.ts';
import { api } from '../../../lib/api-client.ts';

/** Query key of the buyer's own campaigns; invalidate it after a campaign is created. */
export const campaignsKey = ['buyer', 'campaigns'] as const;

const PAGE_SIZE = 200;
// A buyer's campaigns are few; the cap only stops a runaway loop if the server misbehaves.
const MAX_PAGES = 50;

export type AllCampaigns = { items: Campaign[]; total: number };

/**
 * Every campaign of the signed-in buyer, newest first (the server's order), read page by page:
 * the table searches, sorts and pages them in the browser.
 */
export async function getAllCampaigns(signal?: AbortSignal): Promise<AllCampaigns> {
  const items: Campaign[] = [];
  let total = 0;
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const res = await api<CampaignList>('buyer/campaigns', {
      query: { page, page_size: PAGE_SIZE },
      signal,
    });
    items.push(...res.items);
    total = res.total;
    if (res.items.length < PAGE_SIZE || items.length >= total) break;
  }
  return { items, total };
}

/** The buyer's campaigns (the dashboard's count and the campaigns table read the same cache). */
export function useCampaigns() {
  return useQuery({
    queryKey: campaignsKey,
    queryFn: ({ signal }) => getAllCampaigns(signal),
    staleTime: 30_000,
  });
}
