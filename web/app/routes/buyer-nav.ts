import { IconLayoutDashboard, IconSpeakerphone } from '@tabler/icons-react';
import { buyerPaths } from '@/app/routes.ts';
import type { NavItem } from '@/components/layouts/nav-item.ts';

/** The buyer's two tabs (spec §2): dashboard and campaigns, shown in the sidebar. */
export const buyerNav: NavItem[] = [
  { label: 'Dashboard', to: buyerPaths.dashboard, icon: IconLayoutDashboard, end: true },
  { label: 'Campaigns', to: buyerPaths.campaigns, icon: IconSpeakerphone },
];
