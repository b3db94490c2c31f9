import type { Role } from '@contract/roles.ts';
import { AreaShell } from '@/components/layouts/area-shell.tsx';
import type { NavItem } from '@/components/layouts/nav-item.ts';
import { adminNav } from './routes/admin-nav.ts';
import { buyerNav } from './routes/buyer-nav.ts';
import { publisherNav } from './routes/publisher-nav.ts';

const areas: Record<Role, { label: string; nav: NavItem[] }> = {
  admin: { label: 'Admin', nav: adminNav },
  publisher: { label: 'Publisher', nav: publisherNav },
  buyer: { label: 'Buyer', nav: buyerNav },
};

/**
 * The signed-in frame of a role's area: its sidebar entries and the shell. One lazy chunk for
 * the three areas (the shell and the sidebars' icons), so /login downloads none of it.
 */
export function AreaFrame({ role }: { role: Role }) {
  const area = areas[role];
  return <AreaShell areaLabel={area.label} nav={area.nav} />;
}
