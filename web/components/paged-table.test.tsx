import { fireEvent, screen, within } from '@testing-library/react';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { itemTexts } from '@/test/item-texts.ts';
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
/** What every test list is called and says when it fails or is empty. */
const deals = {
  label: 'Deals',
  errorTitle: 'Error loading deals',
  emptyTitle: 'No deals yet.',
} as const;

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
      {...deals}
      columns={columns}
      list={list}
      query={query}
      emptyText="Deals appear here."
      renderCard={cards ? (r) => <span>{`${r.name} card`}</span> : undefined}
    />
  );
}

/** A list without its own cards, with an actions column and rows that open. */
function ActionsScreen({
  onOpen,
  onApprove,
}: {
  onOpen: (id: string) => void;
  onApprove: (id: string) => void;
}) {
  const list = useListParams({ sort: 'amount', order: 'desc', sorts });
  return (
    <PagedTable<Row>
      {...deals}
      columns={[
        ...columns,
        {
          accessor: 'actions',
          title: 'Actions',
          render: (r) => (
            <button type="button" onClick={() => onApprove(r.id)}>
              {`Approve ${r.name}`}
            </button>
          ),
        },
      ]}
      list={list}
      query={answered(rows)}
      onRowClick={(r) => onOpen(r.id)}
      phoneCards
    />
  );
}

/** A list whose rows are picked with checkboxes; `picked` shows what the page holds. */
function PickScreen({ initial = [] }: { initial?: Row[] }) {
  const list = useListParams({ sort: 'amount', order: 'desc', sorts });
  const [selected, setSelected] = useState<Row[]>(initial);
  return (
    <>
      <output data-testid="picked">{selected.map((r) => r.id).join(',')}</output>
      <PagedTable<Row>
        {...deals}
        columns={columns}
        list={list}
        query={answered(rows)}
        selection={{ selected, onChange: setSelected, rowLabel: (r) => `Select ${r.name}` }}
        phoneCards
      />
    </>
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
    expect(itemTexts(list)).toEqual(['Alpha Auto card', 'Beta Brokers card']);
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toBeTruthy();
  });

  it('on a phone without cards keeps the table (it scrolls sideways)', () => {
    viewport.width = 375;
    renderWithApp(<Screen query={answered(rows)} />);
    expect(screen.getByRole('table', { name: 'Deals' })).toBeTruthy();
  });

  it('on a phone with phoneCards shows each row as its columns, the actions last', () => {
    viewport.width = 375;
    const opened: string[] = [];
    const approved: string[] = [];
    renderWithApp(
      <ActionsScreen onOpen={(id) => opened.push(id)} onApprove={(id) => approved.push(id)} />,
    );
    expect(screen.queryByRole('table')).toBeNull();
    const cards = screen.getAllByTestId('list-card');
    expect(cards).toHaveLength(2);
    const first = cards[0]!;
    expect(within(first).getByText('Amount')).toBeTruthy();
    expect(within(first).getByText('Alpha Auto')).toBeTruthy();
    // The action is the card's last part, whole, not at the end of a sideways-scrolled row.
    expect(first.lastElementChild?.getAttribute('data-testid')).toBe('list-card-actions');
    fireEvent.click(within(first).getByRole('button', { name: 'Approve Alpha Auto' }));
    expect(approved).toEqual(['a']);
    expect(opened).toEqual([]);
    fireEvent.click(within(cards[1]!).getByText('Beta Brokers'));
    expect(opened).toEqual(['b']);
  });

  it('on a phone a list whose rows are picked shows cards with a checkbox each', () => {
    viewport.width = 375;
    // A row picked on another page stays picked.
    renderWithApp(<PickScreen initial={[{ id: 'z', name: 'Zeta Zone', amount: 1 }]} />);
    expect(screen.queryByRole('table')).toBeNull();
    const picked = () => screen.getByTestId('picked').textContent;
    const all = screen.getByRole('checkbox', { name: 'Select every row on this page' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Beta Brokers' }));
    expect(picked()).toBe('z,b');
    expect((all as HTMLInputElement).checked).toBe(false);
    fireEvent.click(all);
    expect(picked()).toBe('z,a,b');
    expect((all as HTMLInputElement).checked).toBe(true);
    expect(
      (screen.getByRole('checkbox', { name: 'Select Alpha Auto' }) as HTMLInputElement).checked,
    ).toBe(true);
    fireEvent.click(all);
    expect(picked()).toBe('z');
    // The card's action stays in the card; the checkbox sits beside it.
    const card = screen.getAllByTestId('list-card')[0]!;
    expect(within(card).getByText('Alpha Auto')).toBeTruthy();
  });
});

/** A list sorted by default on a key no column shows (when the deal was made). */
function HiddenSortScreen() {
  const list = useListParams({
    sort: 'created_at',
    order: 'desc',
    sorts: { ...sorts, created_at: 'desc' },
  });
  return (
    <PagedTable<Row> {...deals} columns={columns} list={list} query={answered(rows)} phoneCards />
  );
}

describe('PagedTable phone sort picker', () => {
  it('names a default sort no column shows "Default order" instead of showing nothing', () => {
    viewport.width = 375;
    renderWithApp(<HiddenSortScreen />);
    const picker = screen.getByRole('combobox', { name: 'Sort by' }) as HTMLInputElement;
    expect(picker.value).toBe('Default order');
  });
});

/** A server of 10,030 deals: a capped total past 10,000 and a cursor per page. */
const seen: { page: number; after: string | undefined }[] = [];
const all = 10_030;
function BigScreen() {
  const list = useListParams({ sort: 'amount', order: 'desc', sorts });
  const { page, page_size } = list.query;
  seen.push({ page, after: list.after });
  const start = (page - 1) * page_size;
  const items = Array.from({ length: Math.max(0, Math.min(page_size, all - start)) }, (_, i) => ({
    id: `d${start + i}`,
    name: `Deal ${start + i}`,
    amount: i,
  }));
  const more = start + page_size < all;
  const query: TableQuery<Row> = {
    data: {
      items,
      total: 10_000,
      total_exact: false,
      page,
      next_cursor: more ? `after-page-${page}` : null,
    },
    isPending: false,
    isFetching: false,
    error: null,
    refetch: () => {},
  };
  return <PagedTable<Row> {...deals} columns={columns} list={list} query={query} />;
}

describe('PagedTable over a big list', () => {
  it('counts with thousands separators and says "10,000+" while the total is capped', () => {
    renderWithApp(<Screen query={answered(rows, 1234)} />);
    expect(screen.getByText('1–2 of 1,234')).toBeTruthy();
  });

  it('shows the capped total, and Next sends the cursor the page answered (kept in memory)', () => {
    seen.length = 0;
    const { location } = renderWithApp(<BigScreen />);
    expect(screen.getByText('1–25 of 10,000+')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(location().get('page')).toBe('2');
    expect(location().get('after')).toBeNull();
    expect(seen.at(-1)).toEqual({ page: 2, after: 'after-page-1' });
    expect(screen.getByText('26–50 of 10,000+')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(seen.at(-1)).toEqual({ page: 3, after: 'after-page-2' });
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(seen.at(-1)).toEqual({ page: 2, after: 'after-page-1' });
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(seen.at(-1)).toEqual({ page: 1, after: undefined });
  });

  it('a reload asks by page number; past the cap Next stays until the last page', () => {
    seen.length = 0;
    renderWithApp(<BigScreen />, { url: '/?page=401' });
    expect(seen[0]).toEqual({ page: 401, after: undefined });
    expect(screen.getByText('10,001–10,025 of 10,000+')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(seen.at(-1)).toEqual({ page: 402, after: 'after-page-401' });
    // The last page knows the real total.
    expect(screen.getByText('10,026–10,030 of 10,030')).toBeTruthy();
  });
});
