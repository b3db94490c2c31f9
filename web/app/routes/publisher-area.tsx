import { Card, Stack, Text, Title } from '@mantine/core';
import { IconLayoutDashboard } from '@tabler/icons-react';
import type { RouteObject } from 'react-router';
import type { NavItem } from '../../components/layouts/nav-item.ts';
import { PendingApprovalNotice } from '../../components/pending-approval-notice.tsx';
import { useAuth } from '../../lib/auth.tsx';
import { useMe } from '../../lib/me.ts';
import { usePublicSettings } from '../../lib/public-settings.ts';
import { paths } from '../routes.ts';

// Placeholder overview until the publisher's stat cards and quick actions land; keep the notice.
function PublisherHomePage() {
  const { user } = useAuth();
  const { data: me } = useMe(user?.id);
  const { data: settings } = usePublicSettings();
  return (
    <Stack gap="lg">
      <Title order={1}>Welcome, {me?.name || me?.email || user?.email}!</Title>
      {me?.status === 'pending' ? <PendingApprovalNotice /> : null}
      <Card withBorder padding="lg">
        <Text>{settings?.welcome_message ?? 'Welcome to the portal!'}</Text>
      </Card>
    </Stack>
  );
}

/**
 * The publisher sidebar (labels from the spec: Dashboard, Offers, Leads, Payouts, Documents,
 * Campaign IOs); add each entry together with its route as the screen lands.
 */
export const publisherNav: NavItem[] = [
  { label: 'Dashboard', to: paths.dashboard, icon: IconLayoutDashboard, end: true },
];

/** Child routes of /dashboard (inside the publisher shell, behind the publisher guard). */
export const publisherRoutes: RouteObject[] = [{ index: true, element: <PublisherHomePage /> }];
