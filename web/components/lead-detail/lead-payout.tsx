import type { LeadStatus } from '@contract/roles.ts';
import { Tooltip, VisuallyHidden } from '@mantine/core';
import { formatMoney } from '@/lib/format.ts';

/** "Would have paid $45.00": what a rejected lead would have paid, in words. */
export const wouldHavePaid = (payout: number) => `Would have paid ${formatMoney(payout)}`;

/**
 * A lead's payout as every screen shows it (issue 27 item 1): a rejected lead pays nothing, so
 * it reads $0.00 with the payout it would have had struck through (said in a tooltip, and to
 * screen readers, which do not announce the strike); other statuses show their payout. Takes the
 * font of the text around it.
 */
export function LeadPayout({
  payout,
  status,
}: {
  payout: number | null | undefined;
  status: LeadStatus;
}) {
  if (status !== 'rejected' || payout === null || payout === undefined) {
    return <>{formatMoney(payout)}</>;
  }
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      {formatMoney(0)}{' '}
      <Tooltip label={wouldHavePaid(payout)} withArrow>
        <s
          data-testid="would-have-paid"
          style={{ color: 'var(--mantine-color-dimmed)', fontWeight: 400, fontSize: '0.85em' }}
        >
          <VisuallyHidden>would have paid </VisuallyHidden>
          {formatMoney(payout)}
        </s>
      </Tooltip>
    </span>
  );
}
