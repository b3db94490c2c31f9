import {
  IconCash,
  IconClipboardCheck,
  IconFileCheck,
  IconLayoutDashboard,
  IconPhoneCall,
  IconPlugConnected,
  IconSettings,
  IconSpeakerphone,
  IconTags,
  IconUserDollar,
  IconUsers,
} from '@tabler/icons-react';
import type { RouteObject } from 'react-router';
import { adminPaths } from '@/app/routes.ts';
import type { NavItem } from '@/components/layouts/nav-item.ts';
import { ApplicationsPage } from '@/features/admin/applications/components/applications-page.tsx';
import { BuyersPage } from '@/features/admin/buyers/components/buyers-page.tsx';
import { CampaignsPage } from '@/features/admin/campaigns/components/campaigns-page.tsx';
import { CompliancePage } from '@/features/admin/compliance/components/compliance-page.tsx';
import { AdminDashboardPage } from '@/features/admin/dashboard/components/admin-dashboard-page.tsx';
import { IntegrationsPage } from '@/features/admin/integrations/components/integrations-page.tsx';
import { LeadsPage } from '@/features/admin/leads/components/leads-page.tsx';
import { OffersPage } from '@/features/admin/offers/components/offers-page.tsx';
import { PayoutsPage } from '@/features/admin/payouts/components/payouts-page.tsx';
import { PublisherDetailPage } from '@/features/admin/publishers/components/publisher-detail-page.tsx';
import { PublishersPage } from '@/features/admin/publishers/components/publishers-page.tsx';
import { SettingsPage } from '@/features/admin/settings/components/settings-page.tsx';

/**
 * The admin sidebar in the spec's order: Dashboard, Publishers, Buyers, Offers, Applications,
 * Compliance, Campaigns, Leads, Payouts, Integrations (issue 13), Settings. Add an entry (in that order) with its route.
 */
export const adminNav: NavItem[] = [
  { label: 'Dashboard', to: adminPaths.dashboard, icon: IconLayoutDashboard, end: true },
  { label: 'Publishers', to: adminPaths.publishers, icon: IconUsers },
  { label: 'Buyers', to: adminPaths.buyers, icon: IconUserDollar },
  { label: 'Offers', to: adminPaths.offers, icon: IconTags },
  { label: 'Applications', to: adminPaths.applications, icon: IconClipboardCheck },
  { label: 'Compliance', to: adminPaths.compliance, icon: IconFileCheck },
  { label: 'Campaigns', to: adminPaths.campaigns, icon: IconSpeakerphone },
  { label: 'Leads', to: adminPaths.leads, icon: IconPhoneCall },
  { label: 'Payouts', to: adminPaths.payouts, icon: IconCash },
  { label: 'Integrations', to: adminPaths.integrations, icon: IconPlugConnected },
  { label: 'Settings', to: adminPaths.settings, icon: IconSettings },
];

/** Child routes of /admin (rendered inside the admin shell, behind the admin guard). */
export const adminRoutes: RouteObject[] = [
  { index: true, element: <AdminDashboardPage /> },
  { path: adminPaths.publishers, element: <PublishersPage /> },
  { path: adminPaths.publisherPattern, element: <PublisherDetailPage /> },
  { path: adminPaths.buyers, element: <BuyersPage /> },
  { path: adminPaths.offers, element: <OffersPage /> },
  { path: adminPaths.applications, element: <ApplicationsPage /> },
  { path: adminPaths.compliance, element: <CompliancePage /> },
  { path: adminPaths.campaigns, element: <CampaignsPage /> },
  { path: adminPaths.leads, element: <LeadsPage /> },
  { path: adminPaths.payouts, element: <PayoutsPage /> },
  { path: adminPaths.integrations, element: <IntegrationsPage /> },
  { path: adminPaths.settings, element: <SettingsPage /> },
];
