import {
  IconArrowBackUp,
  IconBroadcast,
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
  IconShieldExclamation,
  IconSignature,
  IconSpeakerphone,
  IconTags,
  IconUserDollar,
  IconUsers,
  IconWebhook,
} from '@tabler/icons-react';
import { adminPaths } from '@/app/routes.ts';
import { adminStatsQuery } from '@/features/admin/dashboard/api/get-admin-stats.ts';
import { dailyStatsQuery } from '@/features/admin/dashboard/api/get-daily-stats.ts';
import { prefetchFirst } from '@/lib/prefetch.ts';
import { apiKeysScreen, area, home, screen } from './area-screens.tsx';

/**
 * The admin area (under /admin, inside the admin shell, behind the admin guard). The sidebar in
 * sections (issue 34: fifteen entries in one column did not fit 1280×800): Dashboard; Partners
 * (Publishers, Buyers, Offers, Campaigns); Review (Applications, Compliance, Disputes); Calls and
 * money (Live, Leads, Payouts, Reports); Setup (Integrations, Tracking numbers, Webhooks, Settings).
 * Add a screen in its section with its sidebar entry.
 */
export const adminArea = area('admin', [
  home(
    adminPaths.dashboard,
    'AdminDashboardPage',
    () => import('@/features/admin/dashboard/components/admin-dashboard-page.tsx'),
    { label: 'Dashboard', icon: IconLayoutDashboard },
    (client) => {
      void prefetchFirst(client, adminStatsQuery);
      // The dashboard's 30-day chart (it opens on its default range).
      void prefetchFirst(client, dailyStatsQuery(30));
    },
  ),
  screen(
    adminPaths.publishers,
    'PublishersPage',
    () => import('@/features/admin/publishers/components/publishers-page.tsx'),
    { section: 'Partners', label: 'Publishers', icon: IconUsers },
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
    { section: 'Partners', label: 'Buyers', icon: IconUserDollar },
  ),
  screen(
    adminPaths.offers,
    'OffersPage',
    () => import('@/features/admin/offers/components/offers-page.tsx'),
    { section: 'Partners', label: 'Offers', icon: IconTags },
  ),
  screen(
    adminPaths.campaigns,
    'CampaignsPage',
    () => import('@/features/admin/campaigns/components/campaigns-page.tsx'),
    { section: 'Partners', label: 'Campaigns', icon: IconSpeakerphone },
  ),
  screen(
    adminPaths.returns,
    'ReturnsPage',
    () => import('@/features/admin/returns/components/returns-page.tsx'),
    { section: 'Review', label: 'Returns', icon: IconArrowBackUp },
  ),
  screen(
    adminPaths.applications,
    'ApplicationsPage',
    () => import('@/features/admin/applications/components/applications-page.tsx'),
    { section: 'Review', label: 'Applications', icon: IconClipboardCheck },
  ),
  screen(
    adminPaths.compliance,
    'CompliancePage',
    () => import('@/features/admin/compliance/components/compliance-page.tsx'),
    { section: 'Review', label: 'Compliance', icon: IconFileCheck },
  ),
  screen(
    adminPaths.disputes,
    'DisputesPage',
    () => import('@/features/admin/disputes/components/disputes-page.tsx'),
    { section: 'Review', label: 'Disputes', icon: IconMessageReport },
  ),
  screen(
    adminPaths.signatures,
    'SignaturesPage',
    () => import('@/features/admin/signatures/components/signatures-page.tsx'),
    { section: 'Review', label: 'Signatures', icon: IconSignature },
  ),
  screen(
    adminPaths.live,
    'LivePage',
    () => import('@/features/admin/live/components/live-page.tsx'),
    { section: 'Calls and money', label: 'Live', icon: IconBroadcast },
  ),
  screen(
    adminPaths.leads,
    'LeadsPage',
    () => import('@/features/admin/leads/components/leads-page.tsx'),
    { section: 'Calls and money', label: 'Leads', icon: IconPhoneCall },
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
    adminPaths.payouts,
    'PayoutsPage',
    () => import('@/features/admin/payouts/components/payouts-page.tsx'),
    { section: 'Calls and money', label: 'Payouts', icon: IconCash },
  ),
  screen(
    adminPaths.fraud,
    'FraudPage',
    () => import('@/features/admin/fraud/components/fraud-page.tsx'),
    { section: 'Calls and money', label: 'Fraud', icon: IconShieldExclamation },
  ),
  screen(
    adminPaths.reports,
    'ReportsPage',
    () => import('@/features/admin/reports/components/reports-page.tsx'),
    { section: 'Calls and money', label: 'Reports', icon: IconChartBar },
  ),
  screen(
    adminPaths.integrations,
    'IntegrationsPage',
    () => import('@/features/admin/integrations/components/integrations-page.tsx'),
    { section: 'Setup', label: 'Integrations', icon: IconPlugConnected },
  ),
  screen(
    adminPaths.trackingNumbers,
    'TrackingNumbersPage',
    () => import('@/features/admin/tracking-numbers/components/tracking-numbers-page.tsx'),
    { section: 'Setup', label: 'Tracking numbers', icon: IconDeviceLandlinePhone },
  ),
  screen(
    adminPaths.webhooks,
    'WebhooksPage',
    () => import('@/features/admin/webhooks/components/webhooks-page.tsx'),
    { section: 'Setup', label: 'Webhooks', icon: IconWebhook },
  ),
  screen(
    adminPaths.settings,
    'SettingsPage',
    () => import('@/features/admin/settings/components/settings-page.tsx'),
    { section: 'Setup', label: 'Settings', icon: IconSettings },
  ),
  apiKeysScreen('admin'),
]);
