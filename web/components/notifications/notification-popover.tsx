import type { Notification } from '@contract/notifications.ts';
import {
  Box,
  Button,
  CloseButton,
  Divider,
  Group,
  NavLink,
  Popover,
  ScrollArea,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { IconBellOff, IconChecks } from '@tabler/icons-react';
import { type ComponentType, type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { formatDateTime } from '@/lib/format.ts';
import { failedToast } from '@/lib/notify.ts';
import type * as api from './notification-api.ts';

/**
 * The list's hooks, handed over by the bell: this lazy chunk then imports no API code of its
 * own (which would make the bundler split the shared API client out of the /login bundle).
 */
export type NotificationHooks = Pick<
  typeof api,
  'useNotificationList' | 'useMarkRead' | 'useMarkAllRead' | 'useUnreadCount'
>;

import { attentionItems } from '../attention-items.ts';
import type { BellButtonProps } from './bell-button-props.ts';

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "just now", "5 minutes ago", "yesterday"; a week or older: the date and time. */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return relative.format(Math.round(seconds / 3600), 'hour');
  if (abs < 7 * 86_400) return relative.format(Math.round(seconds / 86_400), 'day');
  return formatDateTime(iso);
}

/** A named list of the popover without bullets or indent (its rows draw themselves). */
function PlainList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label={label}>
      {children}
    </Stack>
  );
}

function NotificationItem({
  note,
  onOpen,
}: {
  note: Notification;
  onOpen: (note: Notification) => void;
}) {
  const unread = !note.read_at;
  return (
    <NavLink
      component="button"
      onClick={() => onOpen(note)}
      aria-label={`${unread ? 'Unread: ' : ''}${note.title}`}
      px="md"
      py="sm"
      bg={unread ? 'blue.0' : undefined}
      leftSection={
        <Box
          w={8}
          h={8}
          mt={6}
          style={{
            borderRadius: '50%',
            background: unread ? 'var(--mantine-color-blue-6)' : 'transparent',
          }}
          aria-hidden
        />
      }
      styles={{ section: { alignSelf: 'flex-start' } }}
      label={
        <Text size="sm" fw={unread ? 600 : 500} lineClamp={2}>
          {note.title}
        </Text>
      }
      description={
        <>
          <Text component="span" size="xs" c="dimmed" lineClamp={3} mt={2}>
            {note.body}
          </Text>
          <Text
            component="span"
            size="xs"
            c="dimmed"
            mt={4}
            display="block"
            title={formatDateTime(note.created_at)}
          >
            {timeAgo(note.created_at)}
          </Text>
        </>
      }
    />
  );
}

function NotificationPanel({ onClose, hooks }: { onClose: () => void; hooks: NotificationHooks }) {
  const list = hooks.useNotificationList(true);
  const markRead = hooks.useMarkRead();
  const markAll = hooks.useMarkAllRead();
  const navigate = useNavigate();
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const anyUnread = items.some((n) => !n.read_at);
  const waitingData = hooks.useUnreadCount().data?.waiting;
  const waiting = waitingData ? attentionItems(waitingData).filter((w) => w.count > 0) : [];

  const handleOpen = (note: Notification) => {
    if (!note.read_at) markRead.mutate(note.id);
    if (note.link) {
      onClose();
      navigate(note.link);
    }
  };

  const handleMarkAll = () =>
    markAll.mutate(undefined, {
      onError: failedToast('Update failed'),
    });

  return (
    <Stack gap={0}>
      <Group justify="space-between" px="md" py="sm" wrap="nowrap">
        <Text fw={600} id="notifications-title">
          Notifications
        </Text>
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-sm"
            variant="subtle"
            leftSection={<IconChecks size={16} />}
            onClick={handleMarkAll}
            disabled={!anyUnread || markAll.isPending}
            loading={markAll.isPending}
          >
            Mark all read
          </Button>
          <CloseButton aria-label="Close notifications" onClick={onClose} />
        </Group>
      </Group>
      <Divider />
      {waiting.length ? (
        <>
          <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="md" pt="sm" aria-hidden>
            Waiting for you
          </Text>
          <PlainList label="Waiting for you">
            {waiting.map((w) => (
              <li key={w.key}>
                <NavLink
                  component="button"
                  px="md"
                  py={6}
                  label={
                    <Text size="sm" fw={600}>
                      {w.text}
                    </Text>
                  }
                  onClick={() => {
                    onClose();
                    navigate(w.to);
                  }}
                />
              </li>
            ))}
          </PlainList>
          <Divider />
        </>
      ) : null}
      {list.isPending ? (
        <Stack p="md" gap="md" role="status" aria-busy="true" aria-label="Loading notifications">
          {[0, 1, 2].map((i) => (
            <Stack key={i} gap={6}>
              <Skeleton height={12} width="80%" />
              <Skeleton height={10} width="95%" />
              <Skeleton height={10} width="30%" />
            </Stack>
          ))}
        </Stack>
      ) : list.isError ? (
        <Stack p="md" gap="xs" align="flex-start" role="alert">
          <Text size="sm" c="red">
            Error loading notifications: {list.error.message}
          </Text>
          <Button size="xs" variant="light" onClick={() => void list.refetch()}>
            Retry
          </Button>
        </Stack>
      ) : items.length === 0 ? (
        <Stack align="center" gap={6} py="xl" px="md">
          <IconBellOff size={28} stroke={1.5} color="var(--mantine-color-gray-5)" aria-hidden />
          <Text size="sm" fw={500}>
            {waiting.length ? 'No new notifications' : 'You are all caught up'}
          </Text>
          <Text size="xs" c="dimmed" ta="center">
            New sign-ups, submissions and decisions show up here.
          </Text>
        </Stack>
      ) : (
        <ScrollArea.Autosize mah="min(480px, calc(100dvh - 160px))" type="auto">
          <PlainList label="Latest notifications">
            {items.map((note) => (
              <li key={note.id}>
                <NotificationItem note={note} onOpen={handleOpen} />
              </li>
            ))}
          </PlainList>
          {list.hasNextPage ? (
            <Group justify="center" p="xs">
              <Button
                size="compact-sm"
                variant="subtle"
                onClick={() => void list.fetchNextPage()}
                loading={list.isFetchingNextPage}
              >
                Show older
              </Button>
            </Group>
          ) : null}
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}

/**
 * The bell's list in a popover, loaded with the first click on the bell (the signed-in shell
 * downloads only the button): opens at once, beside the sidebar or under the phone header.
 */
export function NotificationPopover({
  placement,
  Button: BellButton,
  hooks,
}: {
  placement: 'sidebar' | 'header';
  Button: ComponentType<BellButtonProps>;
  hooks: NotificationHooks;
}) {
  const [opened, setOpened] = useState(true);
  const close = () => setOpened(false);
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position={placement === 'sidebar' ? 'right-start' : 'bottom-end'}
      offset={placement === 'sidebar' ? 16 : 8}
      shadow="lg"
      radius="md"
      width={placement === 'sidebar' ? 380 : 'min(380px, calc(100vw - 16px))'}
      withinPortal
      trapFocus
      returnFocus
      middlewares={{ shift: { padding: 8 }, flip: true }}
    >
      <Popover.Target>
        <BellButton opened={opened} onClick={() => setOpened((o) => !o)} />
      </Popover.Target>
      <Popover.Dropdown p={0} aria-labelledby="notifications-title" role="dialog">
        {opened ? <NotificationPanel onClose={close} hooks={hooks} /> : null}
      </Popover.Dropdown>
    </Popover>
  );
}
