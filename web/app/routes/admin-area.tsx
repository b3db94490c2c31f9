import {
  IconCash,
  IconChartBar,
  IconClipboardCheck,
  IconDeviceLandlinePhone,
  IconFileCheck,
  IconLayoutDashboard,
  IconMessageReport,
  IconPhoneCall,
  IconPlugConnected,
  IconSettings,
  IconSpeakerphone,
  IconTags,
  IconUserDollar,
  IconUsers,
  IconWebhook,
} from '@tabler/icons-react';
import { adminPaths } from '@/app/routes.ts';
import { area, home, screen } from './area-screens.tsx';

/**
 * The admin area (under /admin, inside the admin shell, behind the admin guard). The sidebar in
 * the spec's order: Dashboard, Publishers, Buyers, Offers, Applications, Compliance, Campaigns,
 * Leads, Disputes (issue 13), Payouts, Reports (issue 15), Integrations (issue 13), Tracking
 * numbers (issue 26), Webhooks (issue 30), Settings. Add a screen (in that order) with its sidebar entry.
 */
export const adminArea = area('admin', [
  home(
    adminPaths.dashboard,
    'AdminDashboardPage',
    () => import('@/features/admin/dashboard/components/admin-dashboard-page.tsx'),
    { label: 'Dashboard', icon: IconLayoutDashboard },
  ),
  screen(
    adminPaths.publishers,
    'PublishersPage',
    () => import('@/features/admin/publishers/components/publishers-page.tsx'),
    { label: 'Publishers', icon: IconUsers },
  ),
  screen(
    adminPaths.publisherPattern,
    'PublisherDetailPage',
    () => import('@/features/admin/publishers/components/publisher-detail-page.tsx'),
  ),
  screen(
    adminPaths.buyers,
    'BuyersPage',
    () => import('@/features/admin/buyers/components/buyers-page.tsx'),
    { label: 'Buyers', icon: IconUserDollar },
  ),
  screen(
    adminPaths.offers,
    'OffersPage',
    () => import('@/features/admin/offers/components/offers-page.tsx'),
    { label: 'Offers', icon: IconTags },
  ),
  screen(
    adminPaths.applications,
    'ApplicationsPage',
    () => import('@/features/admin/applications/components/applications-page.tsx'),
    { label: 'Applications', icon: IconClipboardCheck },
  ),
  screen(
    adminPaths.compliance,
    'CompliancePage',
    () => import('@/features/admin/compliance/components/compliance-page.tsx'),
    { label: 'Compliance', icon: IconFileCheck },
  ),
  screen(
    adminPaths.campaigns,
    'CampaignsPage',
    () => import('@/features/admin/campaigns/components/campaigns-page.tsx'),
    { label: 'Campaigns', icon: IconSpeakerphone },
  ),
  screen(
    adminPaths.leads,
    'LeadsPage',
    () => import('@/features/admin/leads/components/leads-page.tsx'),
    { label: 'Leads', icon: IconPhoneCall },
  ),
  screen(
    adminPaths.leadPattern,
    'LeadDetailPage',
    () => import('@/features/admin/leads/components/lead-detail-page.tsx'),
  ),
  screen(
    adminPaths.leadImport,
    'LeadImportPage',
    () => import('@/features/admin/leads/components/lead-import-page.tsx'),
  ),
  screen(
    adminPaths.disputes,
    'DisputesPage',
    () => import('@/features/admin/disputes/components/disputes-page.tsx'),
    { label: 'Disputes', icon: IconMessageReport },
  ),
  screen(
    adminPaths.payouts,
    'PayoutsPage',
    () => import('@/features/admin/payouts/components/payouts-page.tsx'),
    { label: 'Payouts', icon: IconCash },
  ),
  screen(
    adminPaths.reports,
    'ReportsPage',
    () => import('@/features/admin/reports/components/reports-page.tsx'),
    { label: 'Reports', icon: IconChartBar },
  ),
  screen(
    adminPaths.integrations,
    'IntegrationsPage',
    () => import('@/features/admin/integrations/components/integrations-page.tsx'),
    { label: 'Integrations', icon: IconPlugConnected },
  ),
  screen(
    adminPaths.trackingNumbers,
    'TrackingNumbersPage',
    () => import('@/features/admin/tracking-numbers/components/tracking-numbers-page.tsx'),
    { label: 'Tracking numbers', icon: IconDeviceLandlinePhone },
  ),
  screen(
    adminPaths.webhooks,
    'WebhooksPage',
    () => import('@/features/admin/webhooks/components/webhooks-page.tsx'),
    { label: 'Webhooks', icon: IconWebhook },
  ),
  screen(
    adminPaths.settings,
    'SettingsPage',
    () => import('@/features/admin/settings/components/settings-page.tsx'),
    { label: 'Settings', icon: IconSettings },
  ),
  // Profile → API keys: reached from the account links above Sign Out, not the sidebar.
  screen(
    adminPaths.apiKeys,
    'ApiKeysPage',
    () => import('@/components/api-keys/api-keys-page.tsx'),
  ),
]);
