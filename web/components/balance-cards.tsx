import type { Balance } from '@contract/money.ts';
import { BALANCE_RULES } from '@contract/money-rules.ts';
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
  const cards = [
    {
      label: 'Earned',
      value: b?.earned,
      icon: <IconCoin size={24} />,
      color: 'teal',
      rule: BALANCE_RULES.earned,
      note: b?.rejected_calls
        ? `${plural(b.rejected_calls, 'rejected call')}, paying ${formatMoney(0)}`
        : undefined,
    },
    {
      label: 'Under review',
      value: b?.pending_review,
      icon: <IconClockHour4 size={24} />,
      color: 'gray',
      rule: BALANCE_RULES.pending,
      note: b ? plural(b.pending_calls, 'call') : undefined,
    },
    {
      label: audience === 'publisher' ? 'Owed to you' : 'Owed',
      value: b?.owed,
      icon: <IconCash size={24} />,
      color: 'grape',
      rule: BALANCE_RULES.owed,
    },
    {
      label: 'In a run, not yet paid',
      value: b?.recorded,
      icon: <IconTruckDelivery size={24} />,
      color: 'orange',
      rule: BALANCE_RULES.recorded,
    },
    {
      label: 'Paid',
      value: b?.paid,
      icon: <IconReceipt size={24} />,
      color: 'blue',
      rule: BALANCE_RULES.paid,
    },
  ];
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 5 }} spacing="md">
      {cards.map((c) => (
        <StatCard
          key={c.label}
          label={c.label}
          value={c.value === undefined ? undefined : formatMoney(c.value)}
          loading={loading}
          icon={c.icon}
          color={c.color}
          rule={c.rule}
          note={'note' in c ? c.note : undefined}
        />
      ))}
    </SimpleGrid>
  );
}
