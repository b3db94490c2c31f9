import {
  IconLayoutDashboard,
  IconSettings,
  IconSpeakerphone,
  IconUserDollar,
  IconUsers,
} from '@tabler/icons-react';
import type { RouteObject } from 'react-router';
import type { NavItem } from '../../components/layouts/nav-item.ts';
import { BuyersPage } from '../../features/admin/buyers/components/buyers-page.tsx';
import { CampaignsPage } from '../../features/admin/campaigns/components/campaigns-page.tsx';
import { AdminDashboardPage } from '../../features/admin/dashboard/components/admin-dashboard-page.tsx';
import { adminPaths } from '../../features/admin/paths.ts';
import { PublisherDetailPage } from '../../features/admin/publishers/components/publisher-detail-page.tsx';
import { PublishersPage } from '../../features/admin/publishers/components/publishers-page.tsx';
import { SettingsPage } from '../../features/admin/settings/components/settings-page.tsx';

/**
 * The admin sidebar in the spec's order: Dashboard, Publishers, Buyers, Offers, Applications,
 * Compliance, Campaigns, Leads, Payouts, Settings. Add an entry (in that order) with its route.
 */
export const adminNav: NavItem[] = [
  { label: 'Dashboard', to: adminPaths.dashboard, icon: IconLayoutDashboard, end: true },
  { label: 'Publishers', to: adminPaths.publishers, icon: IconUsers },
  { label: 'Buyers', to: adminPaths.buyers, icon: IconUserDollar },
  // Offers, Applications, Compliance go here.
  { label: 'Campaigns', to: adminPaths.campaigns, icon: IconSpeakerphone },
  // Leads, Payouts go here.
  { label: 'Settings', to: adminPaths.settings, icon: IconSettings },
];

/** Child routes of /admin (rendered inside the admin shell, behind the admin guard). */
export const adminRoutes: RouteObject[] = [
  { index: true, element: <AdminDashboardPage /> },
  { path: 'publishers', element: <PublishersPage /> },
  { path: 'publishers/:id', element: <PublisherDetailPage /> },
  { path: 'buyers', element: <BuyersPage /> },
  { path: 'campaigns', element: <CampaignsPage /> },
  { path: 'settings', element: <SettingsPage /> },
];
