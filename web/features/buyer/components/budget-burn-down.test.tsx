import type { BuyerDashboard } from '@contract/buyer-calls.ts';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { threeDaysOfSpend } from '@/test/buyer-dashboard-fixture.ts';
import { json, noRoute, stubFetch } from '@/test/fake-api.ts';
import { renderWithApp } from '@/test/render.tsx';
import { BudgetBurnDown } from './budget-burn-down.tsx';

let answer: BuyerDashboard;
beforeEach(() => {
  answer = {
    ...threeDaysOfSpend,
    spend_today: 99.9,
    spend_month: 300,
    calls_delivered: 12,
    calls_billable: 12,
    avg_duration_seconds: 95,
  };
  stubFetch(({ url }) =>
    url.pathname === '/api/v1/buyer/dashboard' ? json(200, answer) : noRoute(),
  );
});

describe('BudgetBurnDown', () => {
  it('says when the budget runs out at the recent pace, beside the spend', async () => {
    renderWithApp(<BudgetBurnDown />);
    expect((await screen.findByTestId('burn-down-projection')).textContent).toBe(
      'At $100.00 a day the budget runs out on 2026-12-04.',
    );
    expect(screen.getByText(/Spent \$300\.00 of \$1,000\.00/)).toBeTruthy();
  });

  it('says there is nothing to burn down without a budget', async () => {
    answer = { ...answer, budget: null };
    renderWithApp(<BudgetBurnDown />);
    expect(await screen.findByText(/have no budget/)).toBeTruthy();
  });
});
