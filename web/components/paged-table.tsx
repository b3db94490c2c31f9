import 'mantine-datatable/styles.css';
import { Alert, Box, Button, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconInbox } from '@tabler/icons-react';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';

/** Rows per page offered by every admin list. */
export const PAGE_SIZES = [10, 25, 50, 100];

/** A list's sort in the shape mantine-datatable uses: column accessor and direction. */
export type SortStatus<T> = DataTableSortStatus<T>;

type PagedTableProps<T> = {
  /** Names the table for screen readers, e.g. "Publishers". */
  label: string;
  columns: DataTableColumn<T>[];
  records: T[] | undefined;
  total: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (size: number) => void;
  sortStatus: SortStatus<T>;
  onSortStatusChange: (status: SortStatus<T>) => void;
  /** True while the first answer is on its way: skeleton rows, never a spinner. */
  isPending: boolean;
  /** True while a newer page or filter loads over the current rows. */
  isFetching?: boolean;
  isError: boolean;
  /** What the error state says, e.g. "Error loading publishers". */
  errorTitle: string;
  errorMessage?: string;
  onRetry: () => void;
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

/** A list's error state: what failed, the server's message and a Retry button. */
export function ListError({
  title,
  message,
  onRetry,
}: {
  title: string;
  message?: string;
  onRetry: () => void;
}) {
  return (
    <Alert
      color="red"
      variant="light"
      title={title}
      icon={<IconAlertTriangle size={20} />}
      role="alert"
    >
      <Stack gap="sm" align="flex-start">
        {message ? <Text size="sm">{message}</Text> : null}
        <Button size="xs" variant="white" color="red" onClick={onRetry}>
          Retry
        </Button>
      </Stack>
    </Alert>
  );
}

/**
 * Shared server-paged list (admin and other areas): skeleton while the first page loads, an
 * error state with Retry, an empty state, sortable columns and pagination, horizontal scroll on
 * phones. Paging and sorting are server-side; the caller owns the state.
 */
export function PagedTable<T>(props: PagedTableProps<T>) {
  const { isPending, isError, records } = props;
  if (isPending && !records) return <TableSkeleton />;
  if (isError && !records) {
    return (
      <ListError title={props.errorTitle} message={props.errorMessage} onRetry={props.onRetry} />
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
        totalRecords={props.total}
        recordsPerPage={props.pageSize}
        page={props.page}
        onPageChange={props.onPageChange}
        recordsPerPageOptions={PAGE_SIZES}
        onRecordsPerPageChange={props.onPageSizeChange}
        recordsPerPageLabel="Rows per page"
        paginationText={({ from, to, totalRecords }) => `${from}–${to} of ${totalRecords}`}
        paginationWrapBreakpoint="sm"
        sortStatus={props.sortStatus}
        onSortStatusChange={props.onSortStatusChange}
        fetching={Boolean(props.isFetching) && rows.length > 0}
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
