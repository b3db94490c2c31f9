import { Table, type TableProps, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A column's header: its text, or its text with the figures' right alignment or a width. */
export type ScrollTableHead = string | { label: string; right?: true; w?: number };

/** A table's header row: one cell a column, figures' headers aligned right. */
export function TableHeads({ heads }: { heads: ScrollTableHead[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {heads.map((h) =>
          typeof h === 'string' ? (
            <Table.Th key={h}>{h}</Table.Th>
          ) : (
            <Table.Th key={h.label} ta={h.right ? 'right' : undefined} w={h.w}>
              {h.label}
            </Table.Th>
          ),
        )}
      </Table.Tr>
    </Table.Thead>
  );
}

/**
 * A small table of a detail screen that scrolls sideways on a phone: its headers and rows, or
 * a dimmed sentence when it has no rows.
 */
export function ScrollTable({
  count,
  empty,
  minWidth,
  heads,
  children,
  ...table
}: {
  /** How many rows; none shows `empty` instead of the table. */
  count: number;
  empty: string;
  minWidth: number;
  heads: ScrollTableHead[];
  /** The rows (`Table.Tr`s). */
  children: ReactNode;
} & Omit<TableProps, 'children'>) {
  if (!count) {
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table {...table}>
        <TableHeads heads={heads} />
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
