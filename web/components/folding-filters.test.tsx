import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render.tsx';
import { viewport } from '@/test/setup-dom.ts';
import { activeFilterCount, FoldingFilters } from './folding-filters.tsx';

afterEach(() => {
  viewport.width = 1280;
});

describe('activeFilterCount', () => {
  it('counts each filled filter once and a date range as one', () => {
    expect(activeFilterCount({ q: '', status: '', from: '', to: '' })).toBe(0);
    expect(activeFilterCount({ q: 'abc', status: 'pending', from: '2026-11-01', to: '' })).toBe(3);
    expect(activeFilterCount({ q: '', from: '2026-11-01', to: '2026-11-20' })).toBe(1);
  });
});

/** The folding frame around one Status field, with `count` filters on. */
function renderFilters(count: number) {
  renderWithApp(
    <FoldingFilters count={count}>
      <input aria-label="Status" />
    </FoldingFilters>,
  );
}

describe('FoldingFilters', () => {
  it('shows the filters as they are on a desk', () => {
    renderFilters(2);
    expect(screen.getByRole('textbox', { name: 'Status' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Filters/ })).toBeNull();
  });

  it('folds them behind a Filters button with the count on a phone', () => {
    viewport.width = 390;
    renderFilters(2);
    const button = screen.getByRole('button', { name: 'Filters, 2 on' });
    expect(button.textContent).toContain('2');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('textbox', { name: 'Status' })).toBeNull();
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('textbox', { name: 'Status' })).toBeTruthy();
  });

  it('says no count when no filter is on', () => {
    viewport.width = 390;
    renderFilters(0);
    expect(screen.getByRole('button', { name: 'Filters' }).textContent).toBe('Filters');
  });
});
