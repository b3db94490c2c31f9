import type { AdminBuyer } from '@contract/admin.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BUYER, billing } from '@/test/billing-fixture.ts';
import { renderWithApp } from '@/test/render.tsx';
import { json, type StubRequest, stubApi } from '@/test/stub-api.ts';
import { BuyerBillingModal } from './buyer-billing-modal.tsx';

describe('Admin → Buyers → Billing', () => {
  it('records a deposit from the admin card', async () => {
    const sent: StubRequest[] = [];
    let state = billing();
    stubApi((req) => {
      if (
        req.path !== `/api/v1/admin/buyers/${BUYER.id}/billing` &&
        !req.path.endsWith('/deposits')
      )
        return undefined;
      if (req.method === 'POST') {
        sent.push(req);
        state = billing({
          balance: 250,
          deposits: [{ id: 'd1', amount: 250, note: 'Wire 7', created_at: '2026-11-27T07:00:00Z' }],
        });
        return json(201, state);
      }
      return json(200, state);
    });
    renderWithApp(<BuyerBillingModal buyer={BUYER as unknown as AdminBuyer} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: /Billing · Bea Buyer/ });
    await within(dialog).findByText('Record a deposit');
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Amount' }), {
      target: { value: '250' },
    });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Note' }), {
      target: { value: 'Wire 7' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record deposit' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.body).toEqual({ amount: 250, note: 'Wire 7' });
    expect((await within(dialog).findAllByText('$250.00')).length).toBe(2); // balance, deposit
  });
});
