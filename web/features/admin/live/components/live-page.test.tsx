import type { LiveCounters, LiveLead } from '@contract/live.ts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fake-api.ts';
import { renderWithApp } from '@/test/render.tsx';
import { LivePage } from './live-page.tsx';

const call = (over: Partial<LiveLead> = {}): LiveLead => ({
  id: '00000000-0000-4000-8000-000000000001',
  kind: 'created',
  timestamp: new Date().toISOString(),
  status: 'pending',
  last_event: 'incoming',
  in_progress: true,
  duration_seconds: null,
  caller: '+13125550142',
  offer_id: 'o1',
  offer_title: 'Solar',
  publisher_id: 'p1',
  publisher_name: 'Live Lena',
  payout: 20,
  revenue: 45,
  ...over,
});

const counters = (over: Partial<LiveCounters> = {}): LiveCounters => ({
  calls_today: 0,
  in_progress: 0,
  payable_today: 0,
  payout_today: 0,
  revenue_today: 0,
  per_minute: [],
  ...over,
});

const sse = (event: string, data: unknown, id?: number) =>
  `${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

describe('LivePage', () => {
  it('shows the snapshot, then a ringing call, then the same call completed, in place', async () => {
    let push!: (text: string) => void;
    const seen: { accept: string | null; auth: string | null }[] = [];
    stubFetch(({ url, init }) => {
      if (url.pathname !== '/api/v1/live') return new Response('{}', { status: 404 });
      const headers = new Headers(init?.headers);
      seen.push({ accept: headers.get('accept'), auth: headers.get('authorization') });
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          const enc = new TextEncoder();
          push = (text) => controller.enqueue(enc.encode(text));
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    renderWithApp(<LivePage />, { url: '/admin/live' });
    await waitFor(() => expect(seen).toHaveLength(1), { timeout: 4000 });
    expect(seen[0]!.accept).toBe('text/event-stream');
    push(sse('snapshot', { leads: [], counters: counters() }, 10));
    await screen.findByText('No call is ringing or talking now.');
    expect(screen.getByTestId('live-status').textContent).toBe('Live');

    push(sse('leads', { leads: [call()] }, 11));
    const inProgress = screen.getByRole('region', { name: 'Calls in progress' });
    await within(inProgress).findByText('Ringing');
    push(sse('counters', counters({ calls_today: 1, in_progress: 1 })));
    await waitFor(() =>
      expect(
        within(screen.getByRole('region', { name: 'In progress' }))
          .getAllByTestId('stat-value')
          .map((e) => e.textContent),
      ).toEqual(['1']),
    );

    push(
      sse(
        'leads',
        {
          leads: [
            call({
              kind: 'changed',
              last_event: 'completed',
              in_progress: false,
              status: 'approved',
              duration_seconds: 95,
            }),
          ],
        },
        12,
      ),
    );
    await screen.findByText('No call is ringing or talking now.');
    const last = screen.getByRole('region', { name: 'Last calls' });
    expect(within(last).getAllByTestId('live-call')).toHaveLength(1);
    expect(within(last).getByText('Completed')).toBeTruthy();
    expect(within(last).getByText('1:35')).toBeTruthy();
  });
});
