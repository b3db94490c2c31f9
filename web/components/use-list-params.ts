import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DEFAULT_PAGE_SIZE, type TableListState } from './paged-table.tsx';

type Order = 'asc' | 'desc';

export type ListDefaults<S extends string> = {
  /**
   * The sortable columns, named by the server's sort keys, each with the direction its first
   * click gives (text A→Z, amounts and dates highest/newest first). Anything else in the URL
   * falls back to `sort`.
   */
  sorts: Readonly<Record<S, Order>>;
  sort: NoInfer<S>;
  order: Order;
  pageSize?: number;
};

/**
 * The one list state of every area: page, page size, sort and filters kept in the URL's query
 * string (`?page=2&page_size=50&sort=payout&order=asc&status=approved`), so a reload, a shared
 * link or coming back from a detail page shows the same list. Changing a filter or the sort
 * goes back to page 1. A URL without these parameters shows the list's defaults.
 *
 * The `next_cursor` each page answers is kept in memory (never in the URL) for the page after
 * it, and sent as `after` when that page is asked for: Next and Prev read straight from the
 * server's index at any depth. A reload, a shared link or a page number typed or clicked
 * without a kept cursor asks by page number, which the server also answers.
 */
export function useListParams<S extends string, F extends string = never>(
  defaults: ListDefaults<S>,
  filterNames: readonly F[] = [],
) {
  const [params, setParams] = useSearchParams();
  const defaultSize = defaults.pageSize ?? DEFAULT_PAGE_SIZE;

  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const pageSize = Math.min(200, Math.max(1, Number(params.get('page_size')) || defaultSize));
  const rawSort = params.get('sort');
  const sort: S =
    rawSort !== null && Object.hasOwn(defaults.sorts, rawSort) ? (rawSort as S) : defaults.sort;
  const rawOrder = params.get('order');
  const order: Order = rawOrder === 'asc' || rawOrder === 'desc' ? rawOrder : defaults.order;

  const filters = useMemo(() => {
    const out = {} as Record<F, string>;
    for (const name of filterNames) out[name] = params.get(name) ?? '';
    return out;
  }, [params, filterNames]);

  // Cursors belong to one list: its sort, order, page size and filters.
  const listKey = JSON.stringify([sort, order, pageSize, filters]);
  const [cursors, setCursors] = useState<{ key: string; byPage: Record<number, string> }>({
    key: listKey,
    byPage: {},
  });
  const after = cursors.key === listKey ? cursors.byPage[page] : undefined;
  const rememberCursor = useCallback(
    (forPage: number, cursor: string) =>
      setCursors((prev) => {
        if (prev.key !== listKey) return { key: listKey, byPage: { [forPage]: cursor } };
        if (prev.byPage[forPage] === cursor) return prev;
        return { key: listKey, byPage: { ...prev.byPage, [forPage]: cursor } };
      }),
    [listKey],
  );

  const update = useCallback(
    (changes: Record<string, string | number | null>, resetPage: boolean) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(changes)) {
            if (v === null || v === '') next.delete(k);
            else next.set(k, String(v));
          }
          if (resetPage) next.delete('page');
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  const state = {
    page,
    pageSize,
    sort,
    order,
    filters,
    /** True when any filter is set (the empty state then says "match these filters"). */
    filtered: filterNames.some((name) => filters[name] !== ''),
    /** The kept cursor of this page (undefined: ask by page number). */
    after,
    rememberCursor,
    /** Paging and sort as every list route takes them. */
    query: { page, page_size: pageSize, sort, order, ...(after ? { after } : {}) },
    /** Paging alone, for a list route that takes no sort. */
    paging: { page, page_size: pageSize, ...(after ? { after } : {}) },
    /** The filters that are set, for the request (an empty one is left out). */
    activeFilters: Object.fromEntries(
      Object.entries(filters).filter(([, v]) => v !== ''),
    ) as Partial<Record<F, string>>,
    setPage: (p: number) => update({ page: p === 1 ? null : p }, false),
    setPageSize: (size: number) => update({ page_size: size === defaultSize ? null : size }, true),
    setFilter: (name: F, value: string | null) => update({ [name]: value }, true),
    /** Several filters in one step (e.g. a date range's from and to), back to page 1. */
    setFilters: (changes: Partial<Record<F, string | null>>) =>
      update(changes as Record<string, string | null>, true),
    setSort: (column: string, next?: Order) => {
      if (!Object.hasOwn(defaults.sorts, column)) return;
      update({ sort: column, order: next ?? defaults.sorts[column as S] }, true);
    },
  };
  return state satisfies TableListState;
}

/**
 * A list's paging kept in the component (a second list on a screen whose URL already holds the
 * first one's, a log inside a dialog): newest first, no sort column.
 */
export function useLocalList(): TableListState {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  return {
    page,
    pageSize,
    sort: '',
    order: 'desc',
    setPage,
    setPageSize: (size) => {
      setPageSize(size);
      setPage(1);
    },
    setSort: () => {},
  };
}
