import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { ListFilters } from '../list-filters.tsx';
import { PageHeader } from '../page-header.tsx';
import { PagedTable } from '../paged-table.tsx';

type TableProps<T> = Parameters<typeof PagedTable<T>>[0];

type ListPageProps<T> = Omit<TableProps<T>, 'label' | 'errorTitle' | 'emptyTitle' | 'list'> & {
  title: string;
  description: ReactNode;
  actions?: ReactNode;
  /** The list's filter fields, in one wrapping row above the table. */
  filters?: ReactNode;
  /** Between the filters and the table (totals, a bulk bar). */
  above?: ReactNode;
  /**
   * What the list holds, plural and lower case ("buyers"): it names the texts below (default: the
   * title lower-cased).
   */
  noun?: string;
  /** The table's name (default: the noun capitalised). */
  label?: string;
  /** The loading-error title (default "Error loading <noun>"). */
  errorTitle?: string;
  /** The empty state of an unfiltered list; a filtered one says "No <noun> match these filters.". */
  empty?: string;
  /** Replaces both empty texts (a list whose empty state follows its own filter). */
  emptyTitle?: string;
  list: TableProps<T>['list'] & { filtered: boolean };
  /** Dialogs of the screen, after the table. */
  children?: ReactNode;
};

/**
 * The admin list screen: its header, a row of filters, the server-paged table (cards on phones)
 * and the screen's dialogs.
 */
export function ListPage<T>({
  title,
  description,
  actions,
  filters,
  above,
  noun = title.toLowerCase(),
  label,
  errorTitle,
  empty,
  emptyTitle,
  children,
  ...table
}: ListPageProps<T>) {
  return (
    <Stack gap="lg">
      <PageHeader title={title} description={description} actions={actions} />
      {filters ? <ListFilters>{filters}</ListFilters> : null}
      {above}
      <PagedTable<T>
        phoneCards
        {...table}
        label={label ?? `${noun[0]!.toUpperCase()}${noun.slice(1)}`}
        errorTitle={errorTitle ?? `Error loading ${noun}`}
        emptyTitle={
          emptyTitle ?? (table.list.filtered ? `No ${noun} match these filters.` : (empty ?? ''))
        }
      />
      {children}
    </Stack>
  );
}
