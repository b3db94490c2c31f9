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
} from '@tabler/icons-react';
import { adminPaths } from '@/app/routes.ts';
import type { NavItem } from '@/components/layouts/nav-item.ts';

/**
 * The admin sidebar in the spec's order: Dashboard, Publishers, Buyers, Offers, Applications,
 * Compliance, Campaigns, Leads, Disputes (issue 13), Payouts, Reports (issue 15), Integrations (issue 13), Tracking numbers (issue 26), Settings. Add an entry (in that order) with its route.
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
  { label: 'Disputes', to: adminPaths.disputes, icon: IconMessageReport },
  { label: 'Payouts', to: adminPaths.payouts, icon: IconCash },
  { label: 'Reports', to: adminPaths.reports, icon: IconChartBar },
  { label: 'Integrations', to: adminPaths.integrations, icon: IconPlugConnected },
  { label: 'Tracking numbers', to: adminPaths.trackingNumbers, icon: IconDeviceLandlinePhone },
  { label: 'Settings', to: adminPaths.settings, icon: IconSettings },
];
