import type { Role } from '@contract/roles.ts';
import { AreaShell } from '@/components/layouts/area-shell.tsx';
import type { NavItem } from '@/components/layouts/nav-item.ts';
import { adminArea } from './routes/admin-area.tsx';
import { buyerArea } from './routes/buyer-area.tsx';
import { publisherArea } from './routes/publisher-area.tsx';

const areas: Record<Role, { label: string; nav: NavItem[] }> = {
  admin: { label: 'Admin', nav: adminArea.nav },
  publisher: { label: 'Publisher', nav: publisherArea.nav },
  buyer: { label: 'Buyer', nav: buyerArea.nav },
};

/**
 * The signed-in frame of a role's area: its sidebar entries and the shell. One lazy chunk for
 * the three areas (the shell and the sidebars' icons), so /login downloads none of it.
 */
export function AreaFrame({ role }: { role: Role }) {
  const area = areas[role];
  return <AreaShell areaLabel={area.label} nav={area.nav} />;
}
