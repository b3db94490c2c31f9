import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '@/test/render.tsx';
import { json, stubApi } from '@/test/stub-api.ts';
import { PostbacksCard } from './postbacks-card.tsx';

const PUB = '0195a2b4-0000-7000-8000-0000000000a1';
const FINAL = '0195a2b4-0000-7000-8000-0000000000f1';
const SOLAR = '0195a2b4-0000-7000-8000-0000000000f2';
const base = `/api/v1/admin/publishers/${PUB}`;

let saved: { templates: unknown[] }[] = [];

const perOfferFinal = {
  event: 'approved',
  method: 'GET',
  url: 'https://t.example.com/final?c={call_id}',
  body: null,
  offer_id: FINAL,
  offer_title: 'Final Expense Inbound',
};

beforeEach(() => {
  saved = [];
  stubApi(({ method, path, body }) => {
    if (path === `${base}/postbacks` && method === 'PUT') {
      saved.push(body);
      const bad = body.templates.findIndex((t: { url: string }) => t.url.includes('{nope}'));
      if (bad >= 0)
        return json(400, {
          error: {
            code: 'validation_failed',
            message: 'Unknown token {nope}.',
            details: { [`templates.${bad}.url`]: ['Unknown token {nope}.'] },
          },
        });
      return json(200, { templates: body.templates, paused_at: null, passable_tags: [] });
    }
    if (path === `${base}/postbacks`)
      return json(200, { templates: [perOfferFinal], paused_at: null, passable_tags: [] });
    if (path === `${base}/postback-deliveries`)
      return json(200, { items: [], total: 0, page: 1, page_size: 25, next_cursor: null });
    if (path === '/api/v1/admin/offers')
      return json(200, {
        items: [{ id: SOLAR, title: 'Solar Inbound', status: 'active', payout: 30 }],
        total: 1,
        total_exact: true,
        page: 1,
        page_size: 50,
        next_cursor: null,
      });
    return undefined;
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('PostbacksCard (admin, one publisher)', () => {
  it('lists the per-offer postbacks by offer name, adds one for another offer and saves both', async () => {
    renderWithApp(<PostbacksCard publisherId={PUB} />);
    fireEvent.click(screen.getByRole('button', { name: 'Show Postbacks' }));
    expect(await screen.findByText('Final Expense Inbound')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add a postback for one offer' }));
    const rows = screen.getAllByTestId('per-offer-row');
    expect(rows).toHaveLength(2);
    const fresh = rows[1] as HTMLElement;
    const offer = within(fresh).getByRole('combobox', { name: 'Offer' });
    offer.focus();
    fireEvent.click(offer);
    fireEvent.change(offer, { target: { value: 'Sol' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Solar Inbound', hidden: true }));
    fireEvent.change(within(fresh).getByRole('textbox', { name: 'URL' }), {
      target: { value: 'https://t.example.com/solar?p={payout}' },
    });

    fireEvent.click(screen.getByRole('button', { name: 'Save Postbacks' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.templates).toEqual([
      {
        event: 'approved',
        method: 'GET',
        url: 'https://t.example.com/final?c={call_id}',
        body: null,
        offer_id: FINAL,
      },
      {
        event: 'approved',
        method: 'GET',
        url: 'https://t.example.com/solar?p={payout}',
        body: null,
        offer_id: SOLAR,
      },
    ]);
  });

  it("removes a per-offer postback, and puts the server's message on the row it names", async () => {
    renderWithApp(<PostbacksCard publisherId={PUB} />);
    fireEvent.click(screen.getByRole('button', { name: 'Show Postbacks' }));
    await screen.findByText('Final Expense Inbound');
    const row = screen.getByTestId('per-offer-row');
    fireEvent.change(within(row).getByRole('textbox', { name: 'URL' }), {
      target: { value: 'https://t.example.com/final?c={nope}' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save Postbacks' }));
    expect(await within(row).findByText('Unknown token {nope}.')).toBeTruthy();

    fireEvent.click(
      screen.getByRole('button', { name: 'Remove the postback of Final Expense Inbound' }),
    );
    expect(screen.getByText('None yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save Postbacks' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[1]?.templates).toEqual([]);
  });
});
