import {
  IconLayoutDashboard,
  IconPhoneCall,
  IconReceipt,
  IconSpeakerphone,
} from '@tabler/icons-react';
import { buyerPaths } from '@/app/routes.ts';
import { buyerDashboardQuery } from '@/features/buyer/api/calls.ts';
import { campaignCountQuery } from '@/features/buyer/api/get-campaigns.ts';
import { prefetchFirst } from '@/lib/prefetch.ts';
import { apiKeysScreen, area, home, screen } from './area-screens.tsx';

/**
 * The buyer area (under /buyer-dashboard, inside the buyer shell, behind the buyer guard): its
 * tabs (spec §2), dashboard, campaigns and (issue 31) the calls they received and their billing, in the sidebar.
 */
export const buyerArea = area('buyer', [
  home(
    buyerPaths.dashboard,
    'BuyerDashboardPage',
    () => import('@/features/buyer/components/buyer-dashboard-page.tsx'),
    { label: 'Dashboard', icon: IconLayoutDashboard },
    (client) => {
      void client.prefetchQuery(campaignCountQuery);
      void prefetchFirst(client, buyerDashboardQuery);
    },
  ),
  screen(
    buyerPaths.campaigns,
    'CampaignsPage',
    () => import('@/features/buyer/components/campaigns-page.tsx'),
    { label: 'Campaigns', icon: IconSpeakerphone },
  ),
  screen(
    buyerPaths.calls,
    'CallsPage',
    () => import('@/features/buyer/components/calls-page.tsx'),
    { label: 'Calls', icon: IconPhoneCall },
  ),
  screen(
    buyerPaths.billing,
    'BillingPage',
    () => import('@/features/buyer/components/billing-page.tsx'),
    { label: 'Billing', icon: IconReceipt },
  ),
  apiKeysScreen('buyer'),
]);
