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
const DisputesPage = lazyScreen(
  () => import('@/features/admin/disputes/components/disputes-page.tsx'),
  'DisputesPage',
);
const IntegrationsPage = lazyScreen(
  () => import('@/features/admin/integrations/components/integrations-page.tsx'),
  'IntegrationsPage',
);
const LeadDetailPage = lazyScreen(
  () => import('@/features/admin/leads/components/lead-detail-page.tsx'),
  'LeadDetailPage',
);
const LeadsPage = lazyScreen(
  () => import('@/features/admin/leads/components/leads-page.tsx'),
  'LeadsPage',
);
const LeadImportPage = lazyScreen(
  () => import('@/features/admin/leads/components/lead-import-page.tsx'),
  'LeadImportPage',
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
const ReportsPage = lazyScreen(
  () => import('@/features/admin/reports/components/reports-page.tsx'),
  'ReportsPage',
);
const TrackingNumbersPage = lazyScreen(
  () => import('@/features/admin/tracking-numbers/components/tracking-numbers-page.tsx'),
  'TrackingNumbersPage',
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
  { path: adminPaths.leadPattern, ...screenRoute('admin:LeadDetailPage', LeadDetailPage) },
  { path: adminPaths.disputes, ...screenRoute('admin:DisputesPage', DisputesPage) },
  { path: adminPaths.leadImport, ...screenRoute('admin:LeadImportPage', LeadImportPage) },
  { path: adminPaths.reports, ...screenRoute('admin:ReportsPage', ReportsPage) },
  { path: adminPaths.payouts, ...screenRoute('admin:PayoutsPage', PayoutsPage) },
  { path: adminPaths.integrations, ...screenRoute('admin:IntegrationsPage', IntegrationsPage) },
  {
    path: adminPaths.trackingNumbers,
    ...screenRoute('admin:TrackingNumbersPage', TrackingNumbersPage),
  },
  { path: adminPaths.settings, ...screenRoute('admin:SettingsPage', SettingsPage) },
];
