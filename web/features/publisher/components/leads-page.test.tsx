import type { PublisherLead } from '@contract/publisher.ts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, pageOf, stubFetch } from '@/test/fake-api.ts';
import { renderWithApp } from '@/test/render.tsx';
import { LeadsPage } from './leads-page.tsx';

const lead = (over: Partial<PublisherLead>): PublisherLead => ({
  id: crypto.randomUUID(),
  offer_id: '5f0e1d2c-3b4a-4958-8776-655443322110',
  offer_title: 'Medicare',
  payout: 0,
  status: 'rejected',
  call_duration: 1,
  timestamp: '2026-11-20T14:05:00.000Z',
  call_id: null,
  status_reason: null,
  ...over,
});

describe('publisher LeadsPage (issue 34: the reason on each rejected lead)', () => {
  it('shows why each rejected lead does not pay, and nothing on the others', async () => {
    stubFetch(() =>
      json(
        200,
        pageOf([
          lead({ offer_title: 'Short call', status_reason: 'Duration 40 s under the 90 s buffer' }),
          lead({ offer_title: 'No reason' }),
          lead({
            offer_title: 'Paid call',
            status: 'approved',
            payout: 25,
            status_reason: 'Payable: duration 120 s meets the 90 s buffer',
          }),
        ]),
      ),
    );
    renderWithApp(<LeadsPage />, { url: '/dashboard/leads' });
    const table = await screen.findByRole('table');
    const rowOf = (offer: string) => within(table).getByText(offer).closest('tr')!;
    await within(table).findByText('Short call');
    expect(rowOf('Short call').textContent).toContain('Duration 40 s under the 90 s buffer');
    expect(rowOf('No reason').textContent).toContain(
      'No reason was recorded; open the lead or ask the network.',
    );
    expect(rowOf('Paid call').textContent).not.toContain('Payable:');
  });
});
