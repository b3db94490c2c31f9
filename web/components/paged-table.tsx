import 'mantine-datatable/styles.css';
import { Box, Card, Checkbox, Group, Paper, Select, Skeleton, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconInbox } from '@tabler/icons-react';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import { type CSSProperties, type ReactNode, useEffect } from 'react';
import { formatCount } from '@/lib/format.ts';
import classes from './paged-table.module.css';
import { PagerRow, pageControlLabel } from './pager-row.tsx';
import { QueryErrorState } from './query-error-state.tsx';
import { useErrorToast } from './use-error-toast.ts';

/** Rows per page offered by every list, in every area. */
export const PAGE_SIZES = [10, 25, 50, 100];

/** Rows per page of a list whose URL does not say. */
export const DEFAULT_PAGE_SIZE = 25;

/** A list's sort in the shape mantine-datatable uses: column accessor and direction. */
export type SortStatus<T> = DataTableSortStatus<T>;

/** The part of `useListParams` a table needs: page, page size and sort, kept in the URL. */
export type TableListState = {
  page: number;
  pageSize: number;
  sort: string;
  order: 'asc' | 'desc';
  setPage: (page: number) => void;
  setPageSize: (size: number) => void;
  /** Sorts by a column; a newly chosen column starts in its own first direction. */
  setSort: (column: string, order?: 'asc' | 'desc') => void;
  /**
   * Keeps the `next_cursor` a page answered, for the page after it (see `useListParams`), so
   * Next reads straight from the server's index at any depth.
   */
  rememberCursor?: (page: number, cursor: string) => void;
};

/**
 * The part of a TanStack list query a table needs: `Page<T>` answers, whose `total` may be
 * capped (`total_exact: false`, "of 10,000+") and whose `next_cursor` opens the next page.
 */
export type TableQuery<T> = {
  data:
    | {
        items: T[];
        total: number;
        total_exact?: boolean;
        page?: number;
        next_cursor?: string | null;
      }
    | undefined;
  isPending: boolean;
  isFetching: boolean;
  error: Error | null;
  refetch: () => unknown;
};

type PagedTableProps<T> = {
  /** Names the table (and the phone card list) for screen readers, e.g. "Publishers". */
  label: string;
  /** Sortable columns use the server's sort key as their accessor. */
  columns: DataTableColumn<T>[];
  list: TableListState;
  query: TableQuery<T>;
  /** The spec's loading-error toast and error state title, e.g. "Error loading publishers". */
  errorTitle: string;
  /** What an empty list says in bold (e.g. "No leads match these filters."). */
  emptyTitle: string;
  /** A second, quieter line under the empty title. */
  emptyText?: string;
  /** Names the skeleton while the first page loads (default "Loading <label>"). */
  loadingLabel?: string;
  onRowClick?: (record: T) => void;
  /** The row's key (default: its `id`). */
  rowId?: (record: T) => string;
  /** Below this width (px) the table scrolls sideways instead of squeezing its columns. */
  minWidth?: number;
  /**
   * Phone layout: below the `sm` breakpoint each row shows as this card, with a sort picker
   * (and a checkbox on each card when the list has `selection`).
   */
  renderCard?: (record: T) => ReactNode;
  /**
   * Without `renderCard`: on phones, a card of the columns' titles and values with the actions
   * last (the admin lists), instead of a table that scrolls sideways.
   */
  phoneCards?: boolean;
  /** Rows the user can pick (a checkbox column); the page keeps the picked rows. */
  selection?: {
    selected: T[];
    onChange: (rows: T[]) => void;
    /** Names a row's checkbox for screen readers, e.g. "Select the lead of Ann for Solar". */
    rowLabel: (record: T) => string;
  };
};

/** Skeleton rows shown while a list's first page loads (the spec allows no spinner). */
export function TableSkeleton({ label = 'Loading', rows = 6 }: { label?: string; rows?: number }) {
  return (
    <Paper withBorder p="md" role="status" aria-busy="true" aria-label={label}>
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

function EmptyState({ title, text }: { title: string; text?: string }) {
  return (
    <Stack align="center" gap={4} p="xl" ta="center">
      <IconInbox size={32} stroke={1.4} aria-hidden color="var(--mantine-color-dimmed)" />
      {/* The table's empty-state layer greys its text below 4.5:1: set the colours here. */}
      <Text fw={600} c="var(--mantine-color-text)">
        {title}
      </Text>
      {text ? (
        <Text size="sm" c="dimmed" maw={480}>
          {text}
        </Text>
      ) : null}
    </Stack>
  );
}

/** Sort choices of the phone layout, from the table's sortable columns. */
function sortOptions<T>(columns: DataTableColumn<T>[]) {
  return columns
    .filter((c) => c.sortable && typeof c.title === 'string')
    .flatMap((c) => [
      { value: `${String(c.accessor)}:desc`, label: `${c.title as string}, descending` },
      { value: `${String(c.accessor)}:asc`, label: `${c.title as string}, ascending` },
    ]);
}

/** Whether a column holds the row's actions (its title says so, whatever its accessor). */
const isActions = <T,>(c: DataTableColumn<T>) => c.title === 'Actions' || c.accessor === 'actions';

/**
 * The phone card of a list without its own `renderCard`: each column's title and value on a
 * line, the actions last at full width, so the primary action stays on screen instead of at the
 * end of a table scrolled sideways (issue 16). A card of a list with `onRowClick` opens the row
 * when tapped outside its buttons and links.
 */
function columnCard<T>(
  columns: DataTableColumn<T>[],
  onRowClick?: (record: T) => void,
): (record: T, index: number) => ReactNode {
  const shown = columns.filter((c) => !c.hidden);
  const fields = shown.filter((c) => !isActions(c));
  const actions = shown.filter(isActions);
  return (record, index) => {
    const value = (c: DataTableColumn<T>) =>
      c.render
        ? c.render(record, index)
        : String((record as Record<string, unknown>)[String(c.accessor)] ?? '');
    return (
      <Stack
        gap={6}
        data-testid="list-card"
        onClick={
          onRowClick
            ? (e) => {
                if (!(e.target as HTMLElement).closest('a, button, input, [role="menuitem"]'))
                  onRowClick(record);
              }
            : undefined
        }
        style={onRowClick ? { cursor: 'pointer' } : undefined}
      >
        {fields.map((c) => (
          <Group
            key={String(c.accessor)}
            justify="space-between"
            gap="sm"
            wrap="nowrap"
            align="flex-start"
          >
            <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
              {c.title ?? String(c.accessor)}
            </Text>
            <Box ta="right" fz="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
              {value(c)}
            </Box>
          </Group>
        ))}
        {actions.map((c) => (
          <Box
            key={String(c.accessor)}
            pt={4}
            data-testid="list-card-actions"
            className={classes.cardActions}
          >
            {value(c)}
          </Box>
        ))}
      </Stack>
    );
  };
}

/** "1–25 of 1,234", or "1–25 of 10,000+" when the total is capped. */
const rangeText = (from: number, to: number, total: number, exact: boolean) =>
  `${formatCount(from)}–${formatCount(to)} of ${formatCount(total, exact)}`;

/**
 * What the pager counts. An exact total is itself. A capped one (the list holds more) is
 * stretched one row past this page while a next page exists, so Next stays enabled at any
 * depth; on the page that has no next one the real total is known.
 */
export function pagerTotal(
  data: TableQuery<unknown>['data'],
  page: number,
  pageSize: number,
): { records: number; exact: boolean } {
  if (!data) return { records: 0, exact: true };
  const total = data.total;
  if (data.total_exact !== false) return { records: total, exact: true };
  if (data.next_cursor) return { records: Math.max(total, page * pageSize + 1), exact: false };
  return { records: (page - 1) * pageSize + data.items.length, exact: true };
}

function PhoneCards<T>(
  props: PagedTableProps<T> & { rows: T[]; total: number; exact: boolean; busy: boolean },
) {
  const { list, rows, total, exact } = props;
  const records = pagerTotal(props.query.data, list.page, list.pageSize).records;
  const from = (list.page - 1) * list.pageSize + 1;
  const to = Math.min(records, list.page * list.pageSize);
  const pages = Math.max(1, Math.ceil(records / list.pageSize));
  const rowId = props.rowId ?? ((r: T) => String((r as { id: unknown }).id));
  const sortValue = `${list.sort}:${list.order}`;
  const columnSorts = sortOptions(props.columns);
  // A list may sort by default on a key no column shows (Integrations: when created).
  const sorts =
    columnSorts.length && !columnSorts.some((o) => o.value === sortValue)
      ? [{ value: sortValue, label: 'Default order' }, ...columnSorts]
      : columnSorts;
  const selection = props.selection;
  const pickedIds = new Set(selection?.selected.map(rowId));
  const pickedOnPage = rows.filter((r) => pickedIds.has(rowId(r))).length;
  // Picks and unpicks keep the rows picked on other pages, as the table's checkboxes do.
  const setPicked = (changed: T[], picked: boolean) => {
    if (!selection) return;
    const ids = new Set(changed.map(rowId));
    const others = selection.selected.filter((r) => !ids.has(rowId(r)));
    selection.onChange(picked ? [...others, ...changed] : others);
  };
  return (
    <Stack gap="sm" aria-busy={props.busy || undefined} style={{ opacity: props.busy ? 0.6 : 1 }}>
      {sorts.length ? (
        <Select
          label="Sort by"
          data={sorts}
          value={sortValue}
          onChange={(v) => {
            if (!v) return;
            const [column, order] = v.split(':') as [string, 'asc' | 'desc'];
            list.setSort(column, order);
          }}
          allowDeselect={false}
        />
      ) : null}
      {total === 0 ? (
        <Paper withBorder radius="md">
          <EmptyState title={props.emptyTitle} text={props.emptyText} />
        </Paper>
      ) : (
        <>
          {selection && rows.length ? (
            <Checkbox
              label="Select every row on this page"
              checked={pickedOnPage === rows.length}
              indeterminate={pickedOnPage > 0 && pickedOnPage < rows.length}
              onChange={(e) => setPicked(rows, e.currentTarget.checked)}
            />
          ) : null}
          <Stack
            component="ul"
            gap="sm"
            p={0}
            m={0}
            aria-label={props.label}
            style={{ listStyle: 'none' }}
          >
            {rows.map((row) => {
              const picked = pickedIds.has(rowId(row));
              const body = props.renderCard
                ? props.renderCard(row)
                : columnCard(props.columns, props.onRowClick)(row, rows.indexOf(row));
              return (
                <Card
                  component="li"
                  key={rowId(row)}
                  withBorder
                  radius="md"
                  padding="md"
                  // A picked card on blue.0, as a picked table row.
                  bg={picked ? 'var(--mantine-color-blue-0)' : undefined}
                >
                  {selection ? (
                    <Group gap="sm" wrap="nowrap" align="flex-start">
                      <Checkbox
                        aria-label={selection.rowLabel(row)}
                        checked={picked}
                        onChange={(e) => setPicked([row], e.currentTarget.checked)}
                        mt={2}
                      />
                      <Box style={{ flex: 1, minWidth: 0 }}>{body}</Box>
                    </Group>
                  ) : (
                    body
                  )}
                </Card>
              );
            })}
          </Stack>
          <PagerRow
            gap="xs"
            summary={rangeText(from, to, total, exact)}
            total={pages}
            value={list.page}
            onChange={list.setPage}
            size="sm"
          />
        </>
      )}
    </Stack>
  );
}

/**
 * The one server-paged list of every area: skeleton while the first page loads, the spec's
 * loading-error toast plus an error state with Retry, an empty state, sortable columns, a
 * page-size picker, and on phones either cards (`renderCard`) or a table that scrolls sideways.
 * Paging and sorting are done by the server and kept in the URL by `useListParams`.
 */
export function PagedTable<T>(props: PagedTableProps<T>) {
  const { list, query } = props;
  const isPhone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  useErrorToast(query.error, props.errorTitle);
  // A settled answer's next_cursor is kept for the page after the one it answered.
  const answeredPage = query.data?.page;
  const nextCursor = query.data?.next_cursor;
  const remember = list.rememberCursor;
  useEffect(() => {
    if (remember && nextCursor && answeredPage && !query.isFetching) {
      remember(answeredPage + 1, nextCursor);
    }
  }, [remember, nextCursor, answeredPage, query.isFetching]);
  const records = query.data?.items;
  if (query.isPending && !records) {
    return <TableSkeleton label={props.loadingLabel ?? `Loading ${props.label}`} />;
  }
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
  const pager = pagerTotal(query.data, list.page, list.pageSize);
  // The range names the server's total ("10,000+" while capped); the pager counts `records`.
  const total = pager.exact ? pager.records : (query.data?.total ?? 0);
  const busy = query.isFetching;
  // Phones get cards: the list's own, or one built from its columns (a checkbox on each card
  // when rows can be picked).
  if (isPhone && (props.renderCard || props.phoneCards))
    return <PhoneCards {...props} rows={rows} total={total} exact={pager.exact} busy={busy} />;

  function onSortStatusChange(status: SortStatus<T>) {
    const column = String(status.columnAccessor);
    list.setSort(column, column === list.sort ? status.direction : undefined);
  }
  const rowId = props.rowId;
  return (
    <Box aria-label={props.label} role="region">
      <DataTable<T>
        aria-label={props.label}
        aria-busy={busy || undefined}
        withTableBorder
        borderRadius="md"
        highlightOnHover
        striped
        minHeight={rows.length ? undefined : 220}
        idAccessor={rowId ?? ('id' as keyof T & string)}
        columns={props.columns}
        records={rows}
        totalRecords={pager.records}
        recordsPerPage={list.pageSize}
        page={list.page}
        onPageChange={list.setPage}
        recordsPerPageOptions={PAGE_SIZES}
        onRecordsPerPageChange={list.setPageSize}
        recordsPerPageLabel="Rows per page"
        paginationText={({ from, to }) => rangeText(from, to, total, pager.exact)}
        getPaginationControlProps={pageControlLabel}
        paginationWrapBreakpoint="sm"
        sortStatus={{ columnAccessor: list.sort, direction: list.order } as SortStatus<T>}
        onSortStatusChange={onSortStatusChange}
        // A later load (next page, new filter or sort): the rows stay, dimmed; no spinner.
        fetching={busy && rows.length > 0}
        customLoader={<span />}
        loaderBackgroundBlur={0}
        // Selected rows on blue.0: a link (blue.8) keeps 4.5:1 on it; the library's default
        // (the primary colour's light variant, blue.1 here) gives 4.07:1.
        style={
          {
            opacity: busy ? 0.6 : 1,
            transition: 'opacity 150ms',
            '--mantine-datatable-selection-color': 'var(--mantine-color-blue-0)',
          } as CSSProperties
        }
        emptyState={<EmptyState title={props.emptyTitle} text={props.emptyText} />}
        onRowClick={props.onRowClick ? ({ record }) => props.onRowClick?.(record) : undefined}
        {...(props.selection
          ? {
              selectedRecords: props.selection.selected,
              onSelectedRecordsChange: props.selection.onChange,
              getRecordSelectionCheckboxProps: (record: T) => ({
                'aria-label': props.selection!.rowLabel(record),
              }),
              allRecordsSelectionCheckboxProps: { 'aria-label': 'Select every row on this page' },
            }
          : {})}
        verticalAlign="center"
        styles={{ table: { minWidth: props.minWidth ?? 720 } }}
        scrollAreaProps={{ type: 'auto' }}
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

/**
 * For a column's `visibleMediaQuery`: shown from the `xl` breakpoint up (a wide screen); at a
 * 1280 px desk the column's text goes into another cell instead (issue 34).
 */
export const fromWide = (theme: { breakpoints: Record<string, string> }) =>
  `(min-width: ${theme.breakpoints.xl})`;
