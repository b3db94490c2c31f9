import type { AdminLead } from '@contract/admin.ts';
import type { LeadFilter } from '@contract/lead-actions.ts';
import { TOTAL_CAP } from '@contract/list.ts';
import { Button, Group, Skeleton, Text } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { SelectionBar } from '@/components/bulk-decision-bar.tsx';
import { useLeadTotals } from '@/features/admin/leads/api/lead-actions.ts';
import { formatCount, formatMoney } from '@/lib/format.ts';

/** The picked rows of one filter (`key`), or every lead matching it (`all`). */
export type BulkSelection = { key: string; rows: AdminLead[]; all: boolean };

/**
 * "95 leads · $244.00 earned · $120.00 under review · 12 rejected" of the leads matching the
 * filter, above the table (issue 27 item 1): approved and pending payouts apart, rejected leads
 * counted without money.
 */
export function LeadTotalsLine({ filter }: { filter: LeadFilter }) {
  const totals = useLeadTotals(filter);
  const t = totals.data;
  if (!t) {
    return totals.error ? null : (
      <Skeleton height={20} width={260} role="status" aria-label="Loading totals" />
    );
  }
  const figure = (value: string, words: string) => (
    <Text size="sm">
      <Text span fw={700}>
        {value}
      </Text>{' '}
      {words}
    </Text>
  );
  return (
    <Group gap="lg" aria-label="Totals of the matching leads" role="group">
      {figure(
        formatCount(t.count, t.count_exact),
        t.count === 1 && t.count_exact ? 'lead' : 'leads',
      )}
      {t.earned === null || t.under_review === null ? (
        <Text size="sm" c="dimmed">
          Money totals: narrow the filter to {formatCount(TOTAL_CAP)} leads or fewer
        </Text>
      ) : (
        <>
          {figure(formatMoney(t.earned), 'earned')}
          {figure(formatMoney(t.under_review), 'under review')}
        </>
      )}
      {t.rejected === null ? null : figure(formatCount(t.rejected), 'rejected')}
    </Group>
  );
}

/** The bulk bar's two actions: the status each sets on the picked leads. */
const bulkActions = [
  { status: 'approved', label: 'Approve', color: 'teal.9', Icon: IconCheck },
  { status: 'rejected', label: 'Reject', color: 'red', Icon: IconX },
] as const;

/**
 * Shown while leads are picked: how many, "Select all N matching" once the whole page is picked
 * and more leads match, and the Approve / Reject actions.
 */
export function BulkBar({
  selection,
  pageRows,
  filter,
  onSelectAll,
  onClear,
  onAction,
}: {
  selection: BulkSelection;
  pageRows: number;
  filter: LeadFilter;
  onSelectAll: () => void;
  onClear: () => void;
  onAction: (status: 'approved' | 'rejected') => void;
}) {
  const totals = useLeadTotals(filter);
  const picked = selection.rows.length;
  if (picked === 0 && !selection.all) return null;
  const total = totals.data;
  const more = total && (!total.count_exact || total.count > picked);
  return (
    <SelectionBar
      status={
        selection.all
          ? `All ${total ? formatCount(total.count, total.count_exact) : ''} matching leads selected`
          : `${formatCount(picked)} selected`
      }
      extra={
        !selection.all && more && picked >= pageRows ? (
          <Button variant="subtle" size="compact-sm" onClick={onSelectAll}>
            {`Select all ${formatCount(total.count, total.count_exact)} matching leads`}
          </Button>
        ) : null
      }
      onClear={onClear}
    >
      {bulkActions.map((a) => (
        <Button
          key={a.status}
          size="xs"
          color={a.color}
          leftSection={<a.Icon size={14} />}
          onClick={() => onAction(a.status)}
        >
          {a.label}
        </Button>
      ))}
    </SelectionBar>
  );
}
