import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { SortStatus } from './paged-table.tsx';

type Order = 'asc' | 'desc';

type ListDefaults<S extends string> = {
  sort: S;
  order: Order;
  pageSize?: number;
  /** The sortable columns the server accepts; anything else in the URL falls back to `sort`. */
  sorts: readonly S[];
};

/**
 * Shared: a list's page, page size, sort and filters kept in the URL's query string, so a
 * reload, a shared link or coming back from a detail page shows the same list. Changing a
 * filter or the sort goes back to page 1.
 */
export function useListParams<S extends string, F extends string = never>(
  defaults: ListDefaults<S>,
  filterNames: readonly F[] = [],
) {
  const [params, setParams] = useSearchParams();
  const defaultSize = defaults.pageSize ?? 25;

  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const pageSize = Math.min(200, Math.max(1, Number(params.get('page_size')) || defaultSize));
  const rawSort = params.get('sort') as S | null;
  const sort: S = rawSort && defaults.sorts.includes(rawSort) ? rawSort : defaults.sort;
  const rawOrder = params.get('order');
  const order: Order = rawOrder === 'asc' || rawOrder === 'desc' ? rawOrder : defaults.order;

  const filters = useMemo(() => {
    const out = {} as Record<F, string>;
    for (const name of filterNames) out[name] = params.get(name) ?? '';
    return out;
  }, [params, filterNames]);

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

  return {
    page,
    pageSize,
    sort,
    order,
    filters,
    /** The query the admin list routes take. */
    query: { page, page_size: pageSize, sort, order },
    setPage: (p: number) => update({ page: p === 1 ? null : p }, false),
    setPageSize: (size: number) => update({ page_size: size === defaultSize ? null : size }, true),
    setFilter: (name: F, value: string | null) => update({ [name]: value }, true),
    /** Several filters in one step (e.g. a date range's from and to), back to page 1. */
    setFilters: (changes: Partial<Record<F, string | null>>) =>
      update(changes as Record<string, string | null>, true),
    sortStatus<T>(): SortStatus<T> {
      return { columnAccessor: sort, direction: order } as SortStatus<T>;
    },
    setSortStatus<T>(s: SortStatus<T>) {
      update({ sort: String(s.columnAccessor), order: s.direction }, true);
    },
  };
}
