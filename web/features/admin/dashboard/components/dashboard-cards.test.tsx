import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, noRoute, stubFetch } from '@/test/fake-api.ts';
import { renderWithApp } from '@/test/render.tsx';
import { AttentionCard } from './attention-card.tsx';
import { SetupChecklistCard } from './setup-checklist.tsx';

const stats = {
  pending_publishers: 7,
  pending_applications: 0,
  open_disputes: 2,
  refused_calls_24h: 1000,
  held_payouts: 1,
};

describe('AttentionCard', () => {
  it('lists what waits, each a link to its filtered list, and leaves out what does not', () => {
    renderWithApp(<AttentionCard stats={stats} loading={false} />);
    const link = (name: string) => screen.getByRole('link', { name }).getAttribute('href');
    expect(link('7 publishers wait for approval')).toBe('/admin/publishers?status=pending');
    expect(link('2 disputes are open')).toBe('/admin/disputes?status=open');
    expect(link('1,000+ calls refused in the last 24 hours')).toBe(
      '/admin/integrations#refused-calls',
    );
    expect(link('1 publisher is owed money a run would hold')).toBe('/admin/payouts?tab=balances');
    expect(screen.queryByText(/applications? waits? for review/)).toBeNull();
  });

  it('says so when nothing waits', () => {
    const none = {
      ...stats,
      pending_publishers: 0,
      open_disputes: 0,
      refused_calls_24h: 0,
      held_payouts: 0,
    };
    renderWithApp(<AttentionCard stats={none} loading={false} />);
    expect(screen.getByText(/Nothing waits for you/)).toBeTruthy();
  });
});

describe('SetupChecklistCard', () => {
  const steps = (done: string[]) =>
    ['brand', 'offer', 'tracker', 'publishers'].map((step) => ({
      step,
      done: done.includes(step),
    }));

  it('ticks the steps done and dismisses for good', async () => {
    const state = { dismissed: false };
    const calls: string[] = [];
    stubFetch(({ url, method }) => {
      calls.push(`${method} ${url.pathname}`);
      if (url.pathname.endsWith('/setup-checklist/dismiss')) {
        state.dismissed = true;
        return json(200, { steps: steps(['offer']), dismissed: true });
      }
      if (url.pathname.endsWith('/setup-checklist')) {
        return json(200, { steps: steps(['offer']), dismissed: state.dismissed });
      }
      return noRoute();
    });
    renderWithApp(<SetupChecklistCard />);
    expect(await screen.findByText('1 of 4 done')).toBeTruthy();
    expect(screen.getByText(/Create an offer/).textContent).toContain('done');
    expect(screen.getByText(/Connect a tracker/).textContent).toContain('to do');
    expect(screen.getByRole('link', { name: 'Open Integrations' }).getAttribute('href')).toBe(
      '/admin/integrations',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText('1 of 4 done')).toBeNull());
    expect(calls).toContain('POST /api/v1/admin/setup-checklist/dismiss');
  });

  it('stays away once every step is done', async () => {
    stubFetch(() =>
      json(200, { steps: steps(['brand', 'offer', 'tracker', 'publishers']), dismissed: false }),
    );
    const { container } = renderWithApp(<SetupChecklistCard />);
    await waitFor(() => expect(container.querySelector('section')).toBeNull());
    expect(screen.queryByText('Get your network started')).toBeNull();
  });
});
