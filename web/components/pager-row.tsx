import { Group, type GroupProps, Pagination, type PaginationProps, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A pager button's name: "Next page", "Previous page" (and "First page", "Last page"). */
export const pageControlLabel = (control: string) => ({
  'aria-label': `${control[0]!.toUpperCase()}${control.slice(1)} page`,
});

/**
 * Under a list drawn as cards: what it shows on the left (a count, a range), the pager (its
 * `total` pages, the `value` shown) on the right when there is more than one page.
 */
export function PagerRow({
  summary,
  gap,
  wrap,
  ...pagination
}: PaginationProps & { summary: ReactNode; gap?: GroupProps['gap']; wrap?: GroupProps['wrap'] }) {
  return (
    <Group justify="space-between" gap={gap} wrap={wrap}>
      <Text size="sm" c="dimmed">
        {summary}
      </Text>
      {pagination.total > 1 ? (
        <Pagination {...pagination} getControlProps={pageControlLabel} />
      ) : null}
    </Group>
  );
}
