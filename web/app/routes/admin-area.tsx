import type { RouteObject } from 'react-router';
import { lazyScreen, screenRoute } from '@/app/lazy-screen.tsx';
import { adminPaths } from '@/app/routes.ts';

// Each screen is its own chunk, fetched the first time its route renders.
const ApplicationsPage = lazyScreen(
  () => import('@/features/admin/applications/components/applications-page.tsx'),
  'ApplicationsPage',
);
const BuyersPage = lazyScreen(
  () => import('@/features/admin/buyers/components/buyers-page.tsx'),
  'BuyersPage',
);
const CampaignsPage = lazyScreen(
  () => import('@/features/admin/campaigns/components/campaigns-page.tsx'),
  'CampaignsPage',
);
const CompliancePage = lazyScreen(
  () => import('@/features/admin/compliance/components/compliance-page.tsx'),
  'CompliancePage',
);
const AdminDashboardPage = lazyScreen(
  () => import('@/features/admin/dashboard/components/admin-dashboard-page.tsx'),
  'AdminDashboardPage',
);
const LeadsPage = lazyScreen(
  () => import('@/features/admin/leads/components/leads-page.tsx'),
  'LeadsPage',
);
const OffersPage = lazyScreen(
  () => import('@/features/admin/offers/components/offers-page.tsx'),
  'OffersPage',
);
const PayoutsPage = lazyScreen(
  () => import('@/features/admin/payouts/components/payouts-page.tsx'),
  'PayoutsPage',
);
const PublisherDetailPage = lazyScreen(
  () => import('@/features/admin/publishers/components/publisher-detail-page.tsx'),
  'PublisherDetailPage',
);
const PublishersPage = lazyScreen(
  () => import('@/features/admin/publishers/components/publishers-page.tsx'),
  'PublishersPage',
);
const SettingsPage = lazyScreen(
  () => import('@/features/admin/settings/components/settings-page.tsx'),
  'SettingsPage',
);

/** Child routes of /admin (rendered inside the admin shell, behind the admin guard). */
export const adminRoutes: RouteObject[] = [
  { index: true, ...screenRoute('admin:AdminDashboardPage', AdminDashboardPage) },
  { path: adminPaths.publishers, ...screenRoute('admin:PublishersPage', PublishersPage) },
  {
    path: adminPaths.publisherPattern,
    ...screenRoute('admin:PublisherDetailPage', PublisherDetailPage),
  },
  { path: adminPaths.buyers, ...screenRoute('admin:BuyersPage', BuyersPage) },
  { path: adminPaths.offers, ...screenRoute('admin:OffersPage', OffersPage) },
  { path: adminPaths.applications, ...screenRoute('admin:ApplicationsPage', ApplicationsPage) },
  { path: adminPaths.compliance, ...screenRoute('admin:CompliancePage', CompliancePage) },
  { path: adminPaths.campaigns, ...screenRoute('admin:CampaignsPage', CampaignsPage) },
  { path: adminPaths.leads, ...screenRoute('admin:LeadsPage', LeadsPage) },
  { path: adminPaths.payouts, ...screenRoute('admin:PayoutsPage', PayoutsPage) },
  { path: adminPaths.settings, ...screenRoute('admin:SettingsPage', SettingsPage) },
];
