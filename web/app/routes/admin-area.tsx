import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconLayoutDashboard } from '@tabler/icons-react';
import type { RouteObject } from 'react-router';
import type { NavItem } from '../../components/layouts/nav-item.ts';
import { useAuth } from '../../lib/auth.tsx';
import { useMe } from '../../lib/me.ts';
import { usePublicSettings } from '../../lib/public-settings.ts';
import { paths } from '../routes.ts';

// Placeholder index until the admin Dashboard (cards and quick actions) lands.
function AdminHomePage() {
  const { user } = useAuth();
  const { data: me } = useMe(user?.id);
  const { data: settings } = usePublicSettings();
  return (
    <Stack gap="lg">
      <Title order={1}>Admin Dashboard</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder padding="lg">
          <Text fw={600}>Welcome, {me?.name || me?.email || 'admin'}!</Text>
          <Text c="dimmed" size="sm" mt={4}>
            You manage {settings?.company_name ?? 'the portal'} from here.
          </Text>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

/** The admin sidebar; add an entry here with each new admin screen. */
export const adminNav: NavItem[] = [
  { label: 'Dashboard', to: paths.admin, icon: IconLayoutDashboard, end: true },
];

/** Child routes of /admin (rendered inside the admin shell, behind the admin guard). */
export const adminRoutes: RouteObject[] = [{ index: true, element: <AdminHomePage /> }];
