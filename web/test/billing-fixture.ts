import type { BuyerBilling } from '@contract/buyer-billing.ts';

/** A buyer and their billing as the API answers it, for the billing screens' tests. */
export const BUYER = {
  id: '7d1b7c0e-5a55-4f5e-9d61-2d7f0c3b1a90',
  name: 'Bea Buyer',
  email: 'bea@example.com',
};

export const billing = (over: Partial<BuyerBilling> = {}): BuyerBilling => ({
  buyer_id: BUYER.id,
  mode: 'prepaid',
  balance: 0,
  currency: 'USD',
  deposits: [],
  invoices: [
    {
      id: 'a1b2c3d4-0000-4000-8000-000000000001',
      month: '2026-10',
      currency: 'USD',
      time_zone: 'UTC',
      total: 1234.5,
      created_at: '2026-11-01T00:05:00Z',
    },
  ],
  ...over,
});
