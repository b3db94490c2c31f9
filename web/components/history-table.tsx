import { Table, Text } from '@mantine/core';
import { formatDateTime } from '@/lib/format.ts';
import { ScrollTable } from './scroll-table.tsx';

type HistoryEntry = { id: number; action: string; created_at: string };

/**
 * The audit entries of one record (a lead, a publisher), newest first: when, what (the action's
 * label), by whom (or "system") and what it changed.
 */
export function HistoryTable<E extends HistoryEntry>({
  items,
  actionLabels,
  by,
  change,
}: {
  items: E[];
  actionLabels: Record<string, string>;
  by: (entry: E) => string | null;
  change: (entry: E) => string;
}) {
  return (
    <ScrollTable
      count={items.length}
      empty="No changes recorded yet."
      minWidth={560}
      heads={['When', 'What', 'By', 'Change']}
    >
      {items.map((e) => (
        <Table.Tr key={e.id}>
          <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.created_at)}</Table.Td>
          <Table.Td>{actionLabels[e.action] ?? e.action}</Table.Td>
          <Table.Td style={{ overflowWrap: 'anywhere' }}>{by(e) ?? 'system'}</Table.Td>
          <Table.Td>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {change(e)}
            </Text>
          </Table.Td>
        </Table.Tr>
      ))}
    </ScrollTable>
  );
}
