import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { billing } from '@/test/billing-fixture.ts';
import { renderWithApp } from '@/test/render.tsx';
import { json, stubApi } from '@/test/stub-api.ts';
import { BillingPage } from './billing-page.tsx';

describe('Billing (buyer)', () => {
  it("shows the buyer's balance and invoices", async () => {
    stubApi((req) =>
      req.path === '/api/v1/buyer/billing' ? json(200, billing({ balance: 42 })) : undefined,
    );
    renderWithApp(<BillingPage />);
    expect(await screen.findByText('$42.00')).toBeTruthy();
    expect(screen.getByText('2026-10')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'PDF' })).toBeTruthy();
    expect(screen.getByText('No deposits yet.')).toBeTruthy();
  });
});
