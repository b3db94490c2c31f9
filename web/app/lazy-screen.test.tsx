import { fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '@/test/render.tsx';
import { isChunkLoadError, lazyScreen, screenRoute } from './lazy-screen.tsx';

/** A screen as its chunk exports it. */
function LeadsPage() {
  return <h1>Leads</h1>;
}

/** A screen that crashes while rendering. */
function CrashingLeadsPage(): React.ReactNode {
  throw new Error('Cannot read the leads');
}

/** A route whose chunk never arrives, the way Chromium reports it after a deploy. */
function brokenScreen() {
  return lazyScreen(
    () =>
      Promise.reject(
        new TypeError(
          'Failed to fetch dynamically imported module: http://localhost/assets/leads-page-Dx1.js',
        ),
      ) as Promise<{ LeadsPage: () => null }>,
    'LeadsPage',
  );
}

function renderRoute(element: React.ReactNode) {
  return renderWithApp(
    <Routes>
      <Route path="/admin/leads" element={element} />
    </Routes>,
    { url: '/admin/leads' },
  );
}

describe('lazy screens', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the screen once its chunk has loaded, a skeleton meanwhile', async () => {
    let arrive: (module: { LeadsPage: () => React.ReactNode }) => void = () => {};
    const Lazy = lazyScreen(
      () => new Promise<{ LeadsPage: () => React.ReactNode }>((resolve) => (arrive = resolve)),
      'LeadsPage',
    );
    renderRoute(screenRoute('leads', Lazy).element);
    expect(screen.getByLabelText('Loading')).toBeTruthy();
    arrive({ LeadsPage });
    expect(await screen.findByRole('heading', { name: 'Leads' })).toBeTruthy();
    expect(screen.queryByLabelText('Loading')).toBeNull();
  });

  it('says the screen could not be loaded, with a Reload button, when its chunk fails', async () => {
    // React reports the caught error on the console; keep the test output readable.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });

    renderRoute(screenRoute('leads', brokenScreen()).element);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This screen could not be loaded');
    expect(alert.textContent).toContain('Reload the page to continue.');
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('keeps a crash of one screen inside that screen, with its message', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const Crashing = lazyScreen(async () => ({ LeadsPage: CrashingLeadsPage }), 'LeadsPage');
    renderWithApp(
      <>
        <nav aria-label="Admin navigation">sidebar</nav>
        <Routes>
          <Route path="/admin/leads" element={screenRoute('leads', Crashing).element} />
        </Routes>
      </>,
      { url: '/admin/leads' },
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Something went wrong on this screen');
    expect(alert.textContent).toContain('Cannot read the leads');
    expect(screen.getByRole('navigation', { name: 'Admin navigation' })).toBeTruthy();
  });

  it('tells chunk failures from other errors, in the wording of each browser', () => {
    for (const message of [
      'Failed to fetch dynamically imported module: https://x/assets/a.js',
      'error loading dynamically imported module: https://x/assets/a.js',
      'Importing a module script failed.',
      'Unable to preload CSS for /assets/a.css',
    ]) {
      expect(isChunkLoadError(new TypeError(message))).toBe(true);
    }
    expect(isChunkLoadError(new Error('Cannot read the leads'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });
});
