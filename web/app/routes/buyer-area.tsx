import { Card, Stack, Text, Title } from '@mantine/core';
import { IconLayoutDashboard } from '@tabler/icons-react';
import type { RouteObject } from 'react-router';
import type { NavItem } from '../../components/layouts/nav-item.ts';
import { useAuth } from '../../lib/auth.tsx';
import { useMe } from '../../lib/me.ts';
import { usePublicSettings } from '../../lib/public-settings.ts';
import { paths } from '../routes.ts';

// Placeholder dashboard tab until the buyer's Manage Campaigns card and button land.
function BuyerHomePage() {
  const { user } = useAuth();
  const { data: me } = useMe(user?.id);
  const { data: settings } = usePublicSettings();
  return (
    <Stack gap="lg">
      <Title order={1}>Welcome, {me?.name || me?.email || user?.email}!</Title>
      <Card withBorder padding="lg">
        <Text>{settings?.welcome_message ?? 'Welcome to the portal!'}</Text>
      </Card>
    </Stack>
  );
}

/** The buyer's tabs (dashboard, then campaigns when it lands), shown in the sidebar. */
export const buyerNav: NavItem[] = [
  { label: 'Dashboard', to: paths.buyerDashboard, icon: IconLayoutDashboard, end: true },
];

/** Child routes of /buyer-dashboard (inside the buyer shell, behind the buyer guard). */
export const buyerRoutes: RouteObject[] = [{ index: true, element: <BuyerHomePage /> }];
