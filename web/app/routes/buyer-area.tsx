import { IconLayoutDashboard, IconSpeakerphone } from '@tabler/icons-react';
import { buyerPaths } from '@/app/routes.ts';
import { area, home, screen } from './area-screens.tsx';

/**
 * The buyer area (under /buyer-dashboard, inside the buyer shell, behind the buyer guard): its
 * two tabs (spec §2), dashboard and campaigns, shown in the sidebar.
 */
export const buyerArea = area('buyer', [
  home(
    buyerPaths.dashboard,
    'BuyerDashboardPage',
    () => import('@/features/buyer/components/buyer-dashboard-page.tsx'),
    { label: 'Dashboard', icon: IconLayoutDashboard },
  ),
  screen(
    buyerPaths.campaigns,
    'CampaignsPage',
    () => import('@/features/buyer/components/campaigns-page.tsx'),
    { label: 'Campaigns', icon: IconSpeakerphone },
  ),
  // Profile → API keys: reached from the account links above Sign Out, not the sidebar.
  screen(
    buyerPaths.apiKeys,
    'ApiKeysPage',
    () => import('@/components/api-keys/api-keys-page.tsx'),
  ),
]);
