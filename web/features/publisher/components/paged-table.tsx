import 'mantine-datatable/styles.css';
import { Card, Group, Pagination, Select, Skeleton, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import type { ReactNode } from 'react';
import { QueryErrorState } from '../../../components/query-error-state.tsx';

export const PAGE_SIZES = [10, 25, 50, 100];

type PagedTableProps<T> = {
  /** Names the table for screen readers. */
  label: string;
  columns: DataTableColumn<T>[];
  rowId: (row: T) => string;
  records: T[] | undefined;
  total: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (size: number) => void;
  /** The first load: rows of skeletons instead of the table. */
  loading: boolean;
  /** A later load (next page, new filter): the current rows stay, dimmed. */
  fetching: boolean;
  error: Error | null;
  errorTitle: string;
  onRetry: () => void;
  /** What an empty list says (e.g. different with and without filters). */
  emptyTitle: string;
  emptyText: string;
  /** The server sorts the whole list (before paging); the page maps a column to its sort key. */
  sortStatus: DataTableSortStatus<T>;
  onSortStatusChange: (status: DataTableSortStatus<T>) => void;
  /** On a phone, each row shows as this card instead of a table row. */
  renderCard?: (row: T) => ReactNode;
};

/** Sort choices of the phone layout, from the table's sortable columns. */
function sortOptions<T>(columns: DataTableColumn<T>[]) {
  return columns
    .filter((c) => c.sortable && typeof c.title === 'string')
    .flatMap((c) => [
      { value: `${String(c.accessor)}:desc`, label: `${c.title as string}, descending` },
      { value: `${String(c.accessor)}:asc`, label: `${c.title as string}, ascending` },
    ]);
}

/**
 * A server-paged, server-sorted list for the publisher's screens: skeleton rows while loading,
 * an error state with Retry, an empty state, sortable columns and a page-size picker.
 */
export function PagedTable<T>(props: PagedTableProps<T>) {
  const isPhone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  const { sortStatus, onSortStatusChange } = props;
  const rows = props.records ?? [];

  if (props.error && !props.records) {
    return (
      <QueryErrorState
        title={props.errorTitle}
        error={props.error}
        onRetry={props.onRetry}
        retrying={props.fetching}
      />
    );
  }
  if (props.loading) {
    return (
      <Card withBorder radius="md" p="md" aria-busy="true" aria-label={`Loading ${props.label}`}>
        <Stack gap="sm">
          <Skeleton height={24} width="60%" />
          {[0, 1, 2, 3, 4].map((i) => (
            <Skeleton key={i} height={32} />
          ))}
        </Stack>
      </Card>
    );
  }
  if (props.total === 0) {
    return (
      <Card withBorder radius="md" padding="xl">
        <Text fw={600}>{props.emptyTitle}</Text>
        <Text size="sm" c="dimmed" mt={4}>
          {props.emptyText}
        </Text>
      </Card>
    );
  }
  const renderCard = props.renderCard;
  if (isPhone && renderCard) {
    const from = (props.page - 1) * props.pageSize + 1;
    const to = Math.min(props.total, props.page * props.pageSize);
    const pages = Math.max(1, Math.ceil(props.total / props.pageSize));
    return (
      <Stack gap="sm" style={{ opacity: props.fetching ? 0.6 : 1 }}>
        <Select
          label="Sort by"
          data={sortOptions(props.columns)}
          value={`${String(sortStatus.columnAccessor)}:${sortStatus.direction}`}
          onChange={(v) => {
            if (!v) return;
            const [columnAccessor, direction] = v.split(':') as [string, 'asc' | 'desc'];
            onSortStatusChange({ columnAccessor, direction });
          }}
          allowDeselect={false}
        />
        <Stack
          component="ul"
          gap="sm"
          p={0}
          m={0}
          aria-label={props.label}
          style={{ listStyle: 'none' }}
        >
          {rows.map((row) => (
            <Card component="li" key={props.rowId(row)} withBorder radius="md" padding="md">
              {renderCard(row)}
            </Card>
          ))}
        </Stack>
        <Group justify="space-between" gap="xs">
          <Text size="sm" c="dimmed">
            {from}–{to} of {props.total}
          </Text>
          {pages > 1 ? (
            <Pagination
              total={pages}
              value={props.page}
              onChange={props.onPageChange}
              size="sm"
              getControlProps={(control) => ({
                'aria-label': control === 'next' ? 'Next page' : 'Previous page',
              })}
            />
          ) : null}
        </Group>
      </Stack>
    );
  }
  return (
    <DataTable<T>
      aria-label={props.label}
      withTableBorder
      borderRadius="md"
      highlightOnHover
      striped
      minHeight={120}
      columns={props.columns}
      records={rows}
      idAccessor={props.rowId}
      sortStatus={sortStatus}
      onSortStatusChange={onSortStatusChange}
      totalRecords={props.total}
      recordsPerPage={props.pageSize}
      page={props.page}
      onPageChange={props.onPageChange}
      recordsPerPageOptions={PAGE_SIZES}
      onRecordsPerPageChange={props.onPageSizeChange}
      recordsPerPageLabel="Rows per page"
      paginationText={({ from, to, totalRecords }) => `${from}–${to} of ${totalRecords}`}
      getPaginationControlProps={(control) => ({
        'aria-label': `${control[0]!.toUpperCase()}${control.slice(1)} page`,
      })}
      paginationWrapBreakpoint="sm"
      fetching={props.fetching}
      customLoader={<span />}
      loaderBackgroundBlur={0}
      style={{ opacity: props.fetching ? 0.6 : 1 }}
      scrollAreaProps={{ type: 'auto' }}
    />
  );
}
