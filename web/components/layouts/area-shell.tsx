import type { Role } from '@contract/roles.ts';
import {
  ActionIcon,
  AppShell,
  Box,
  Burger,
  Button,
  Divider,
  Group,
  NavLink,
  ScrollArea,
  Stack,
  Text,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconApi, IconKey, IconLogout, IconShieldLock } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, matchPath, Outlet, useLocation } from 'react-router';
import { apiKeysPathByRole, paths } from '@/app/routes.ts';
import { twoFactorPaths } from '@/app/two-factor-paths.ts';
import { BrandLogo } from '@/components/brand-logo.tsx';
import { NotificationBell } from '@/components/notifications/notification-bell.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { useMe } from '@/lib/me.ts';
import classes from './area-shell.module.css';
import type { NavItem } from './nav-item.ts';
import { useSignOut } from './use-sign-out.ts';

type AreaShellProps = {
  /** Names the navigation landmark, e.g. "Publisher". */
  areaLabel: string;
  nav: NavItem[];
};

type AccountLink = Required<Pick<NavItem, 'label' | 'to' | 'icon'>>;

/** The account's own screens, above Sign Out in every area (API keys: inside the user's area). */
function accountLinks(role: Role | undefined): AccountLink[] {
  return [
    ...(role ? [{ label: 'API keys', to: apiKeysPathByRole[role], icon: IconApi }] : []),
    { label: 'Change password', to: paths.changePassword, icon: IconKey },
    { label: 'Two-factor sign-in', to: twoFactorPaths.settings, icon: IconShieldLock },
  ];
}

/** The signed-in frame: sidebar (logo, the area's nav, Sign Out) that folds behind a burger on phones. */
export function AreaShell({ areaLabel, nav }: AreaShellProps) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const isPhone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  const { pathname } = useLocation();
  const { user } = useAuth();
  const { data: me } = useMe(user?.id);
  const { handleSignOut, pending } = useSignOut();

  // The account's status changed while the area was open (a pending publisher approved, say):
  // everything on screen was read under the old status, so it is read again.
  const queryClient = useQueryClient();
  const status = me?.status;
  const seenStatus = useRef(status);
  useEffect(() => {
    if (seenStatus.current && status && seenStatus.current !== status) {
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'me' });
    }
    seenStatus.current = status ?? seenStatus.current;
  }, [status, queryClient]);

  // Following a link on a phone closes the drawer.
  useEffect(() => {
    void pathname;
    close();
  }, [pathname, close]);

  return (
    <AppShell
      header={{ height: 56, collapsed: !isPhone }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding={{ base: 'md', sm: 'xl' }}
    >
      <AppShell.Header>
        <Group h="100%" px="md" gap="sm">
          <Burger
            opened={opened}
            onClick={toggle}
            hiddenFrom="sm"
            size="sm"
            aria-label={opened ? 'Close navigation' : 'Open navigation'}
            aria-expanded={opened}
          />
          <BrandLogo height={32} />
          {isPhone ? (
            <Box ml="auto">
              <NotificationBell placement="header" />
            </Box>
          ) : null}
        </Group>
      </AppShell.Header>

      {/* Folded away on a phone, the sidebar must not take keyboard focus either. */}
      <AppShell.Navbar
        p="md"
        aria-label={`${areaLabel} navigation`}
        inert={isPhone && !opened ? true : undefined}
      >
        <AppShell.Section visibleFrom="sm" mb="sm" px={4}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Box miw={0}>
              <BrandLogo height={40} />
            </Box>
            {isPhone ? null : <NotificationBell placement="sidebar" />}
          </Group>
        </AppShell.Section>
        <AppShell.Section
          grow
          component={ScrollArea}
          type="auto"
          scrollbarSize={8}
          offsetScrollbars
        >
          <Stack gap={0} component="ul" className={classes.list}>
            {nav.map((item, i) => {
              const Icon = item.icon;
              const active = Boolean(
                matchPath({ path: item.to, end: item.end ?? false }, pathname),
              );
              const heading = item.section && item.section !== nav[i - 1]?.section;
              return (
                <li key={item.to}>
                  {heading ? (
                    <Text
                      size="xs"
                      fw={700}
                      c="dimmed"
                      tt="uppercase"
                      px={12}
                      pt={4}
                      pb={0}
                      aria-hidden
                    >
                      {item.section}
                    </Text>
                  ) : null}
                  <NavLink
                    component={Link}
                    to={item.to}
                    label={item.label}
                    active={active}
                    aria-current={active ? 'page' : undefined}
                    leftSection={Icon ? <Icon size={18} stroke={1.6} /> : null}
                    variant="light"
                    style={{ borderRadius: 'var(--mantine-radius-md)', paddingBlock: 5 }}
                  />
                </li>
              );
            })}
          </Stack>
        </AppShell.Section>
        <AppShell.Section>
          <Divider mb="xs" />
          {me ? (
            <Box px={4} mb={4}>
              {me.name ? (
                <Text size="sm" fw={600} truncate="end">
                  {me.name}
                </Text>
              ) : null}
              <Text size="xs" c="dimmed" truncate="end">
                {me.email}
              </Text>
            </Box>
          ) : null}
          {/* The account's screens as a row of named icons (the title says each name): three
              full-width buttons here pushed the last sidebar entries below a 800 px screen. */}
          <Group gap={2} wrap="nowrap">
            {accountLinks(me?.role).map(({ label, to, icon: Icon }) => (
              <ActionIcon
                key={to}
                component={Link}
                to={to}
                variant="subtle"
                color="gray"
                size="lg"
                aria-label={label}
                title={label}
              >
                <Icon size={18} stroke={1.6} />
              </ActionIcon>
            ))}
            <Button
              variant="light"
              color="gray"
              ml="auto"
              px="sm"
              flex="none"
              leftSection={<IconLogout size={18} stroke={1.6} />}
              onClick={handleSignOut}
              disabled={pending}
            >
              Sign Out
            </Button>
          </Group>
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main bg="gray.0">
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
