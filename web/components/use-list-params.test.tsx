import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render.tsx';
import { useListParams } from './use-list-params.ts';

const sorts = { created_at: 'desc', name: 'asc' } as const;
const filterNames = ['status', 'q'] as const;

function Probe() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  return (
    <div>
      <output aria-label="state">
        {JSON.stringify({ ...list.query, filters: list.filters, filtered: list.filtered })}
      </output>
      <button type="button" onClick={() => list.setFilter('status', 'blocked')}>
        filter
      </button>
      <button type="button" onClick={() => list.setFilters({ status: null, q: null })}>
        clear
      </button>
      <button type="button" onClick={() => list.setPage(4)}>
        page 4
      </button>
      <button type="button" onClick={() => list.setPage(1)}>
        page 1
      </button>
      <button type="button" onClick={() => list.setPageSize(50)}>
        50 rows
      </button>
      <button type="button" onClick={() => list.setSort('email')}>
        unknown sort
      </button>
    </div>
  );
}

const state = () => JSON.parse(screen.getByLabelText('state').textContent ?? '{}');

describe('useListParams', () => {
  it('an old link without list parameters shows the defaults', () => {
    renderWithApp(<Probe />, { url: '/admin/publishers' });
    expect(state()).toEqual({
      page: 1,
      page_size: 25,
      sort: 'created_at',
      order: 'desc',
      filters: { status: '', q: '' },
      filtered: false,
    });
  });

  it('reads a shared link', () => {
    renderWithApp(<Probe />, { url: '/?page=3&page_size=50&sort=name&order=asc&q=acme' });
    expect(state()).toMatchObject({ page: 3, page_size: 50, sort: 'name', order: 'asc' });
    expect(state().filters.q).toBe('acme');
    expect(state().filtered).toBe(true);
  });

  it('falls back to the defaults where a link is wrong', () => {
    renderWithApp(<Probe />, { url: '/?page=-2&page_size=9999&sort=password&order=up' });
    expect(state()).toMatchObject({ page: 1, page_size: 200, sort: 'created_at', order: 'desc' });
  });

  it('a new filter or page size goes back to page 1; page 1 and defaults stay out of the URL', () => {
    const { location } = renderWithApp(<Probe />, { url: '/?page=3' });
    fireEvent.click(screen.getByText('page 4'));
    expect(location().get('page')).toBe('4');
    fireEvent.click(screen.getByText('filter'));
    expect(location().get('status')).toBe('blocked');
    expect(location().get('page')).toBeNull();
    fireEvent.click(screen.getByText('page 4'));
    fireEvent.click(screen.getByText('50 rows'));
    expect(location().get('page_size')).toBe('50');
    expect(location().get('page')).toBeNull();
    fireEvent.click(screen.getByText('page 4'));
    fireEvent.click(screen.getByText('page 1'));
    expect(location().get('page')).toBeNull();
    fireEvent.click(screen.getByText('clear'));
    expect(location().get('status')).toBeNull();
    expect(state().filtered).toBe(false);
  });

  it('ignores a sort the list does not offer', () => {
    const { location } = renderWithApp(<Probe />);
    fireEvent.click(screen.getByText('unknown sort'));
    expect(location().get('sort')).toBeNull();
  });
});
