import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render.tsx';
import { AreaSkeleton } from './area-skeleton.tsx';

// The skeleton reads the address the browser shows (it stands in before the router's chunk).
const openAt = (path: string) => window.history.replaceState(null, '', path);

describe('AreaSkeleton (a signed-in screen while its chunks load)', () => {
  afterEach(() => openAt('/'));

  it("names the screen of the address where the screen's title will be", () => {
    openAt('/admin/leads');
    renderWithApp(<AreaSkeleton />);
    const loading = screen.getByRole('status', { name: 'Loading' });
    expect(loading.textContent).toBe('Leads');
    // A page under a screen (a publisher's detail) takes that screen's name.
    openAt('/admin/publishers/5f0c');
    renderWithApp(<AreaSkeleton />);
    expect(screen.getAllByRole('status', { name: 'Loading' })[1]!.textContent).toBe('Publishers');
  });

  it('shows only shapes where the address names no screen', () => {
    openAt('/');
    renderWithApp(<AreaSkeleton />);
    expect(screen.getByRole('status', { name: 'Loading' }).textContent).toBe('');
  });
});
