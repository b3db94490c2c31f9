import { ActionIcon, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { waitingTotal } from '../attention-items.ts';
import type { BellButtonProps } from './bell-button-props.ts';
import {
  notificationListKey,
  useMarkAllRead,
  useMarkRead,
  useNotificationList,
  useUnreadCount,
} from './notification-api.ts';

const hooks = { useNotificationList, useMarkRead, useMarkAllRead, useUnreadCount };

const NotificationPopover = lazy(() =>
  import('./notification-popover.tsx').then((m) => ({ default: m.NotificationPopover })),
);

/** How the badge writes a count: "99+" past 99 (the server stops counting at 100). */
export function badgeText(unread: number, exact: boolean): string {
  return !exact || unread > 99 ? '99+' : unread.toLocaleString('en-US');
}

/** The bell itself: an icon button with the unread badge, named for screen readers. */
function BellButton({ opened, onClick, loading, ref, ...rest }: BellButtonProps) {
  const count = useUnreadCount();
  const unread = count.data?.unread ?? 0;
  // An admin's badge also counts what waits for them (issue 34): pending publishers and
  // applications, open disputes, whether or not their notifications were read.
  const waiting = waitingTotal(count.data?.waiting);
  const shown = badgeText(unread + waiting, count.data?.exact ?? true);
  const said = [
    waiting ? `${waiting.toLocaleString('en-US')} waiting` : '',
    unread ? `${badgeText(unread, count.data?.exact ?? true)} unread` : '',
  ].filter(Boolean);
  return (
    // The badge sits outside the round button, which clips what overflows it.
    <Indicator
      label={shown}
      disabled={unread + waiting === 0}
      color="red"
      size={18}
      offset={6}
      inline
      zIndex={1}
      styles={{ indicator: { fontSize: 11, fontWeight: 700, paddingInline: 5 } }}
    >
      <ActionIcon
        {...rest}
        ref={ref}
        variant="subtle"
        color="gray"
        size="lg"
        radius="xl"
        onClick={onClick}
        loading={loading}
        aria-label={said.length ? `Notifications, ${said.join(', ')}` : 'Notifications'}
        aria-expanded={opened}
        aria-haspopup="dialog"
      >
        <IconBell size={22} stroke={1.6} />
      </ActionIcon>
    </Indicator>
  );
}

/**
 * The bell of the signed-in area (issue 16): the unread count, read every 30 s and when the
 * tab regains focus; a click opens the latest notifications (their code loads on that click).
 */
export function NotificationBell({ placement }: { placement: 'sidebar' | 'header' }) {
  const [wanted, setWanted] = useState(false);
  const count = useUnreadCount();
  const unread = count.data?.unread ?? 0;

  // A new notification arrived: the list (if it is open) is read again.
  const queryClient = useQueryClient();
  const seen = useRef(unread);
  useEffect(() => {
    if (unread > seen.current) {
      void queryClient.invalidateQueries({ queryKey: notificationListKey });
    }
    seen.current = unread;
  }, [unread, queryClient]);

  if (!wanted) return <BellButton opened={false} onClick={() => setWanted(true)} />;
  return (
    <Suspense fallback={<BellButton opened={false} onClick={() => {}} loading />}>
      <NotificationPopover placement={placement} Button={BellButton} hooks={hooks} />
    </Suspense>
  );
}
