import 'mantine-datatable/styles.css';
import { Box, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import { QueryErrorState } from './query-error-state.tsx';
import { useErrorToast } from './use-error-toast.ts';

/** Rows per page offered by every admin list. */
export const PAGE_SIZES = [10, 25, 50, 100];

/** A list's sort in the shape mantine-datatable uses: column accessor and direction. */
export type SortStatus<T> = DataTableSortStatus<T>;

/** The part of `useListParams` a table needs: page, page size and sort, kept in the URL. */
export type TableListState = {
  page: number;
  pageSize: number;
  setPage: (page: number) => void;
  setPageSize: (size: number) => void;
  sortStatus<T>(): SortStatus<T>;
  setSortStatus<T>(status: SortStatus<T>): void;
};

/** The part of a TanStack list query a table needs (`{items, total}` pages). */
export type TableQuery<T> = {
  data: { items: T[]; total: number } | undefined;
  isPending: boolean;
  isFetching: boolean;
  error: Error | null;
  refetch: () => unknown;
};

type PagedTableProps<T> = {
  /** Names the table for screen readers, e.g. "Publishers". */
  label: string;
  columns: DataTableColumn<T>[];
  list: TableListState;
  query: TableQuery<T>;
  /** The spec's loading-error toast and error state title, e.g. "Error loading publishers". */
  errorTitle: string;
  /** What an empty list says (e.g. "No publishers match these filters."). */
  emptyText: string;
  onRowClick?: (record: T) => void;
  idAccessor?: keyof T & string;
  /** Below this width (px) the table scrolls sideways instead of squeezing its columns. */
  minWidth?: number;
};

/** Skeleton rows shown while a list's first page loads. */
export function TableSkeleton({ rows = 6 }: { rows?: number }) {
  return (
    <Paper withBorder p="md" aria-busy="true" aria-label="Loading">
      <Stack gap="sm">
        <Skeleton height={20} width="60%" />
        {Array.from({ length: rows }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <Skeleton key={i} height={28} />
        ))}
      </Stack>
    </Paper>
  );
}

/**
 * Shared server-paged list (every admin list): skeleton while the first page loads, the spec's
 * loading-error toast plus an error state with Retry, an empty state, sortable columns and
 * pagination, horizontal scroll on phones. Paging and sorting are server-side, in the URL.
 */
export function PagedTable<T>({ list, query, ...props }: PagedTableProps<T>) {
  useErrorToast(query.error, props.errorTitle);
  const records = query.data?.items;
  if (query.isPending && !records) return <TableSkeleton />;
  if (query.error && !records) {
    return (
      <QueryErrorState
        title={props.errorTitle}
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  const rows = records ?? [];
  return (
    <Box aria-label={props.label} role="region">
      <DataTable<T>
        withTableBorder
        borderRadius="md"
        highlightOnHover
        striped
        minHeight={rows.length ? undefined : 220}
        idAccessor={props.idAccessor ?? ('id' as keyof T & string)}
        columns={props.columns}
        records={rows}
        totalRecords={query.data?.total ?? 0}
        recordsPerPage={list.pageSize}
        page={list.page}
        onPageChange={list.setPage}
        recordsPerPageOptions={PAGE_SIZES}
        onRecordsPerPageChange={list.setPageSize}
        recordsPerPageLabel="Rows per page"
        paginationText={({ from, to, totalRecords }) => `${from}–${to} of ${totalRecords}`}
        paginationWrapBreakpoint="sm"
        sortStatus={list.sortStatus<T>()}
        onSortStatusChange={list.setSortStatus<T>}
        fetching={query.isFetching && rows.length > 0}
        loaderType="dots"
        emptyState={
          <Stack align="center" gap={4} c="dimmed" p="xl">
            <IconInbox size={32} stroke={1.4} aria-hidden />
            <Text size="sm">{props.emptyText}</Text>
          </Stack>
        }
        onRowClick={props.onRowClick ? ({ record }) => props.onRowClick?.(record) : undefined}
        verticalAlign="center"
        styles={{ table: { minWidth: props.minWidth ?? 720 } }}
      />
    </Box>
  );
}

/** For a column's `visibleMediaQuery`: shown from the `sm` breakpoint up, hidden on phones. */
export const fromTablet = (theme: { breakpoints: Record<string, string> }) =>
  `(min-width: ${theme.breakpoints.sm})`;

/** For a column's `visibleMediaQuery`: shown from the `md` breakpoint up (desktop). */
export const fromDesktop = (theme: { breakpoints: Record<string, string> }) =>
  `(min-width: ${theme.breakpoints.md})`;
