import { fireEvent, screen, within } from '@testing-library/react';
import type { DataTableColumn } from 'mantine-datatable';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render.tsx';
import { viewport } from '@/test/setup-dom.ts';
import { PagedTable, type TableQuery } from './paged-table.tsx';
import { useListParams } from './use-list-params.ts';

type Row = { id: string; name: string; amount: number };
const rows: Row[] = [
  { id: 'a', name: 'Alpha Auto', amount: 10 },
  { id: 'b', name: 'Beta Brokers', amount: 20 },
];
const columns: DataTableColumn<Row>[] = [
  { accessor: 'name', title: 'Name', sortable: true },
  { accessor: 'amount', title: 'Amount', sortable: true },
];
const sorts = { name: 'asc', amount: 'desc' } as const;

/** A list's page as a finished TanStack query would hand it over. */
function answered(items: Row[], total = items.length): TableQuery<Row> {
  return {
    data: { items, total },
    isPending: false,
    isFetching: false,
    error: null,
    refetch: () => {},
  };
}

function Screen({ query, cards = false }: { query: TableQuery<Row>; cards?: boolean }) {
  const list = useListParams({ sort: 'amount', order: 'desc', sorts });
  return (
    <PagedTable<Row>
      label="Deals"
      columns={columns}
      list={list}
      query={query}
      errorTitle="Error loading deals"
      emptyTitle="No deals yet."
      emptyText="Deals appear here."
      renderCard={cards ? (r) => <span>{`${r.name} card`}</span> : undefined}
    />
  );
}

describe('PagedTable', () => {
  it('shows the page in a named table with the range and rows per page', () => {
    renderWithApp(<Screen query={answered(rows, 42)} />);
    const table = screen.getByRole('table', { name: 'Deals' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByText('Beta Brokers')).toBeTruthy();
    expect(screen.getByText('1–2 of 42')).toBeTruthy();
    expect(screen.getByText('Rows per page')).toBeTruthy();
  });

  it('sorts a newly chosen column in its first direction, then flips it, all in the URL', () => {
    const { location } = renderWithApp(<Screen query={answered(rows)} />, { url: '/?page=3' });
    fireEvent.click(screen.getByRole('button', { name: /^Name/ }));
    expect(location().get('sort')).toBe('name');
    expect(location().get('order')).toBe('asc');
    expect(location().get('page')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /^Name/ }));
    expect(location().get('order')).toBe('desc');
    fireEvent.click(screen.getByRole('button', { name: /^Amount/ }));
    expect(location().get('sort')).toBe('amount');
    expect(location().get('order')).toBe('desc');
  });

  it('says so when the list is empty', () => {
    renderWithApp(<Screen query={answered([])} />);
    expect(screen.getByText('No deals yet.')).toBeTruthy();
    expect(screen.getByText('Deals appear here.')).toBeTruthy();
  });

  it('shows a named skeleton, not a table, while the first page loads', () => {
    const loading = { ...answered([]), data: undefined, isPending: true, isFetching: true };
    renderWithApp(<Screen query={loading} />);
    expect(screen.getByLabelText('Loading Deals').getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('a failed first load shows the error with Retry, which loads again', () => {
    let retries = 0;
    const failed: TableQuery<Row> = {
      data: undefined,
      isPending: false,
      isFetching: false,
      error: new Error('The database is restarting.'),
      refetch: () => {
        retries += 1;
      },
    };
    renderWithApp(<Screen query={failed} />);
    const alert = screen.getByRole('alert', { name: 'Error loading deals' });
    expect(within(alert).getByText('The database is restarting.')).toBeTruthy();
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(retries).toBe(1);
  });

  it('on a phone shows cards in a named list with a Sort by picker', () => {
    viewport.width = 375;
    renderWithApp(<Screen query={answered(rows)} cards />);
    expect(screen.queryByRole('table')).toBeNull();
    const list = screen.getByRole('list', { name: 'Deals' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Alpha Auto card', 'Beta Brokers card']);
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toBeTruthy();
  });

  it('on a phone without cards keeps the table (it scrolls sideways)', () => {
    viewport.width = 375;
    renderWithApp(<Screen query={answered(rows)} />);
    expect(screen.getByRole('table', { name: 'Deals' })).toBeTruthy();
  });
});
