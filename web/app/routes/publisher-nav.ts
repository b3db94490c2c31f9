import {
  IconCash,
  IconChartBar,
  IconFileDescription,
  IconFileText,
  IconLayoutDashboard,
  IconPhoneCall,
  IconSpeakerphone,
  IconUserCircle,
} from '@tabler/icons-react';
import { publisherPaths } from '@/app/routes.ts';
import type { NavItem } from '@/components/layouts/nav-item.ts';

/** The publisher sidebar, labels exactly as the spec names them. */
export const publisherNav: NavItem[] = [
  { label: 'Dashboard', to: publisherPaths.overview, icon: IconLayoutDashboard, end: true },
  { label: 'Offers', to: publisherPaths.offers, icon: IconSpeakerphone },
  { label: 'Leads', to: publisherPaths.leads, icon: IconPhoneCall },
  { label: 'Payouts', to: publisherPaths.payouts, icon: IconCash },
  { label: 'Reports', to: publisherPaths.reports, icon: IconChartBar },
  { label: 'Documents', to: publisherPaths.documents, icon: IconFileDescription },
  { label: 'Campaign IOs', to: publisherPaths.ios, icon: IconFileText },
  { label: 'Profile', to: publisherPaths.profile, icon: IconUserCircle },
];
