import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { json, pageOf, stubFetch } from '@/test/fake-api.ts';
import { renderWithApp } from '@/test/render.tsx';
import { badgeText, NotificationBell } from './notification-bell.tsx';

function PathProbe() {
  return <output data-testid="path">{useLocation().pathname}</output>;
}

const note = {
  id: '00000000-0000-4000-8000-000000000001',
  kind: 'publisher_signed_up',
  title: 'New publisher sign-up: Nora',
  body: 'Nora signed up as a publisher and waits for approval.',
  link: '/admin/publishers/p1',
  created_at: new Date().toISOString(),
  read_at: null,
};

/** A fake /api/v1/me/notifications: the count and list given, and the calls it saw. */
function fakeApi(state: {
  unread: number;
  exact?: boolean;
  items: (typeof note)[];
  waiting?: { pending_publishers: number; pending_applications: number; open_disputes: number };
}) {
  const calls: string[] = [];
  stubFetch(({ url, method }) => {
    calls.push(`${method} ${url.pathname}`);
    if (url.pathname.endsWith('/unread-count')) {
      return json(200, {
        unread: state.unread,
        exact: state.exact ?? true,
        ...(state.waiting && { waiting: state.waiting }),
      });
    }
    if (url.pathname.endsWith('/read')) {
      state.unread = Math.max(0, state.unread - 1);
      return json(200, { ...note, read_at: new Date().toISOString() });
    }
    return json(200, pageOf(state.items, 10));
  });
  return calls;
}

describe('badgeText', () => {
  it('formats the count and caps it at 99+', () => {
    expect(badgeText(7, true)).toBe('7');
    expect(badgeText(99, true)).toBe('99');
    expect(badgeText(100, false)).toBe('99+');
    expect(badgeText(150, true)).toBe('99+');
  });
});

describe('NotificationBell', () => {
  it('shows the unread count, and 99+ when the server stopped counting', async () => {
    fakeApi({ unread: 100, exact: false, items: [] });
    renderWithApp(<NotificationBell placement="sidebar" />);
    expect(await screen.findByRole('button', { name: 'Notifications, 99+ unread' })).toBeTruthy();
    expect(screen.getByText('99+')).toBeTruthy();
  });

  it('shows the empty state when there is nothing', async () => {
    fakeApi({ unread: 0, items: [] });
    renderWithApp(<NotificationBell placement="sidebar" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('You are all caught up')).toBeTruthy();
  });

  it('a click on an item marks it read and opens its link', async () => {
    const calls = fakeApi({ unread: 1, items: [note] });
    renderWithApp(
      <>
        <NotificationBell placement="header" />
        <PathProbe />
      </>,
      { url: '/admin' },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    fireEvent.click(
      // jsdom runs no transitions: the dropdown stays "hidden" to the accessibility tree.
      await screen.findByRole('button', {
        name: 'Unread: New publisher sign-up: Nora',
        hidden: true,
      }),
    );
    await waitFor(() => expect(calls).toContain(`POST /api/v1/me/notifications/${note.id}/read`));
    expect(screen.getByTestId('path').textContent).toBe('/admin/publishers/p1');
    // The count drops at once.
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeTruthy();
  });

  it('counts what waits for an admin, and lists it above the notifications (issue 34)', async () => {
    fakeApi({
      unread: 0,
      items: [],
      waiting: { pending_publishers: 7, pending_applications: 1, open_disputes: 0 },
    });
    renderWithApp(
      <>
        <NotificationBell placement="sidebar" />
        <PathProbe />
      </>,
      { url: '/admin' },
    );
    const bell = await screen.findByRole('button', { name: 'Notifications, 8 waiting' });
    expect(screen.getByText('8')).toBeTruthy();
    fireEvent.click(bell);
    const pending = await screen.findByRole('button', {
      name: '7 publishers wait for approval',
      hidden: true,
    });
    expect(
      screen.getByRole('button', { name: '1 application waits for review', hidden: true }),
    ).toBeTruthy();
    // Nothing about disputes when none is open; not "all caught up" while work waits.
    expect(screen.queryByText(/disputes? (is|are) open/)).toBeNull();
    expect(await screen.findByText('No new notifications')).toBeTruthy();
    fireEvent.click(pending);
    expect(screen.getByTestId('path').textContent).toBe('/admin/publishers');
  });
});
