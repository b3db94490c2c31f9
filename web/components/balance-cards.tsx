import { BALANCE_RULES, type Balance } from '@contract/money.ts';
import { SimpleGrid } from '@mantine/core';
import {
  IconCash,
  IconClockHour4,
  IconCoin,
  IconReceipt,
  IconTruckDelivery,
} from '@tabler/icons-react';
import { formatMoney } from '@/lib/format.ts';
import { StatCard } from './stat-card.tsx';

const plural = (n: number, word: string) => `${n.toLocaleString()} ${word}${n === 1 ? '' : 's'}`;

/**
 * Shared (issue 27): a publisher's money figures as every screen defines them (contract
 * `BALANCE_RULES`, read from server/modules/money/figures.ts): earned, under review, owed, in a
 * run not yet paid, paid. The publisher's payouts page and the admin publisher page show the same
 * five cards with the same words, so the two never disagree.
 */
export function BalanceCards({
  balance,
  loading,
  audience,
}: {
  balance: Balance | undefined;
  loading?: boolean;
  /** `publisher`: "you" in the labels; `admin`: neutral. */
  audience: 'publisher' | 'admin';
}) {
  const b = balance;
  const value = (v: number | undefined) => (v === undefined ? undefined : formatMoney(v));
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 5 }} spacing="md">
      <StatCard
        label="Earned"
        value={value(b?.earned)}
        loading={loading}
        icon={<IconCoin size={24} />}
        color="teal"
        rule={BALANCE_RULES.earned}
        note={
          b?.rejected_calls
            ? `${plural(b.rejected_calls, 'rejected call')}, paying $0.00`
            : undefined
        }
      />
      <StatCard
        label="Under review"
        value={value(b?.pending_review)}
        loading={loading}
        icon={<IconClockHour4 size={24} />}
        color="gray"
        rule={BALANCE_RULES.pending}
        note={b ? plural(b.pending_calls, 'call') : undefined}
      />
      <StatCard
        label={audience === 'publisher' ? 'Owed to you' : 'Owed'}
        value={value(b?.owed)}
        loading={loading}
        icon={<IconCash size={24} />}
        color="grape"
        rule={BALANCE_RULES.owed}
      />
      <StatCard
        label="In a run, not yet paid"
        value={value(b?.recorded)}
        loading={loading}
        icon={<IconTruckDelivery size={24} />}
        color="orange"
        rule={BALANCE_RULES.recorded}
      />
      <StatCard
        label="Paid"
        value={value(b?.paid)}
        loading={loading}
        icon={<IconReceipt size={24} />}
        color="blue"
        rule={BALANCE_RULES.paid}
      />
    </SimpleGrid>
  );
}
