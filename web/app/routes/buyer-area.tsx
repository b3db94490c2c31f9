import { IconLayoutDashboard, IconSpeakerphone } from '@tabler/icons-react';
import type { RouteObject } from 'react-router';
import { buyerPaths } from '@/app/routes.ts';
import type { NavItem } from '@/components/layouts/nav-item.ts';
import { BuyerDashboardPage } from '@/features/buyer/components/buyer-dashboard-page.tsx';
import { CampaignsPage } from '@/features/buyer/components/campaigns-page.tsx';

/** The buyer's two tabs (spec §2): dashboard and campaigns, shown in the sidebar. */
export const buyerNav: NavItem[] = [
  { label: 'Dashboard', to: buyerPaths.dashboard, icon: IconLayoutDashboard, end: true },
  { label: 'Campaigns', to: buyerPaths.campaigns, icon: IconSpeakerphone },
];

/** Child routes of /buyer-dashboard (inside the buyer shell, behind the buyer guard). */
export const buyerRoutes: RouteObject[] = [
  { index: true, element: <BuyerDashboardPage /> },
  { path: buyerPaths.campaigns, element: <CampaignsPage /> },
];
