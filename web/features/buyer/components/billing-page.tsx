import { Stack } from '@mantine/core';
import { useMyBilling } from '@/components/billing/billing-api.ts';
import { BillingView } from '@/components/billing/billing-view.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { QueryCard } from '@/components/query-card.tsx';

/** /buyer-dashboard/billing (issue 31): the buyer's balance, deposits and invoices. */
export function BillingPage() {
  const query = useMyBilling();
  return (
    <Stack gap="lg">
      <PageHeader
        title="Billing"
        description="Your balance, the deposits the network recorded and your monthly invoices."
      />
      <QueryCard query={query} errorTitle="Billing could not be loaded">
        {(billing) => <BillingView billing={billing} area="buyer" />}
      </QueryCard>
    </Stack>
  );
}
