import type { Campaign } from '@contract/buyer.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '@/test/fake-api.ts';
import { renderWithApp } from '@/test/render.tsx';
import { CreateCampaignDialog, EditCampaignDialog } from './create-campaign-dialog.tsx';

// A signed-in buyer: the dialogs only read whether there is a session.
vi.mock('@/lib/auth.tsx', () => ({ useAuth: () => ({ session: { access_token: 'x' } }) }));

const campaign: Campaign = {
  id: '5f0e1d2c-3b4a-4958-8776-655443322110',
  buyer_id: '1f0e1d2c-3b4a-4958-8776-655443322110',
  name: 'Medicare Q3',
  goal: null,
  target_audience: null,
  location: null,
  budget: 500,
  start_date: '2026-09-03',
  end_date: '2026-09-15',
  created_at: '2026-08-01T10:00:00.000Z',
  status: 'active',
  status_reason: null,
  paused_by: null,
  price_per_call: 25,
  buffer_seconds: 90,
  daily_cap: null,
  spent: 0,
};

const inDialog = (name: string) => {
  const dialog = screen.getByRole('dialog', { name });
  return {
    dialog,
    field: (label: string) => within(dialog).getByLabelText(label, { exact: false }),
    click: (button: string) =>
      fireEvent.click(within(dialog).getByRole('button', { name: button })),
  };
};

describe('campaign budget (issue 34: "-500" was saved as $500)', () => {
  it('keeps the minus sign typed and refuses the budget without sending anything', async () => {
    const fetch = stubFetch(() => json(201, campaign));
    renderWithApp(<CreateCampaignDialog opened onClose={() => {}} />);
    const { dialog, field, click } = inDialog('Create Campaign');
    fireEvent.change(field('Campaign name'), { target: { value: 'Negative' } });
    fireEvent.change(field('Budget'), { target: { value: '-500' } });
    expect((field('Budget') as HTMLInputElement).value).toBe('-$500');
    click('Create Campaign');
    await within(dialog).findByText('Budget cannot be negative.');
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('EditCampaignDialog', () => {
  it('shows the stored budget and days as YYYY-MM-DD and sends only budget and dates', async () => {
    const sent: unknown[] = [];
    const onClose = vi.fn();
    stubFetch(async (req) => {
      sent.push({ method: req.method, path: req.url.pathname, body: req.body() });
      return json(200, { ...campaign, budget: 750 });
    });
    renderWithApp(<EditCampaignDialog opened campaign={campaign} onClose={onClose} />);
    const { dialog, field, click } = inDialog('Edit Medicare Q3');
    expect(within(dialog).queryByLabelText('Campaign name', { exact: false })).toBeNull();
    expect((field('Start date') as HTMLInputElement).value).toBe('2026-09-03');
    expect((field('End date') as HTMLInputElement).value).toBe('2026-09-15');
    fireEvent.change(field('Budget'), { target: { value: '750' } });
    click('Save changes');
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([
      {
        method: 'PATCH',
        path: `/api/v1/buyer/campaigns/${campaign.id}`,
        body: { budget: 750, start_date: '2026-09-03', end_date: '2026-09-15' },
      },
    ]);
    expect(document.querySelector('.mantine-Notification-root')?.textContent).toContain(
      'Campaign updated.',
    );
  });

  it("shows the server's refusal on the field and keeps the dialog open", async () => {
    const onClose = vi.fn();
    stubFetch(() =>
      json(400, {
        error: {
          code: 'validation_failed',
          message: 'The end date cannot be before the start date.',
          details: { end_date: ['The end date cannot be before the start date.'] },
        },
      }),
    );
    renderWithApp(<EditCampaignDialog opened campaign={campaign} onClose={onClose} />);
    const { dialog, field, click } = inDialog('Edit Medicare Q3');
    fireEvent.change(field('Budget'), { target: { value: '900' } });
    click('Save changes');
    await within(dialog).findByText('The end date cannot be before the start date.');
    expect(onClose).not.toHaveBeenCalled();
  });
});
