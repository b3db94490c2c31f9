import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';

/** Shows the current URL's query string, so a test can read what a list keeps there. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.search}</output>;
}

/**
 * Renders a screen part with the app's providers (Mantine, toasts, TanStack Query, a router at
 * `url`). `location()` is the query string the router holds now.
 */
export function renderWithApp(ui: ReactNode, { url = '/' }: { url?: string } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MantineProvider>
        <Notifications limit={1} />
        <MemoryRouter initialEntries={[url]}>
          {ui}
          <LocationProbe />
        </MemoryRouter>
      </MantineProvider>
    </QueryClientProvider>,
  );
  const location = () => new URLSearchParams(result.getByTestId('location').textContent ?? '');
  return { ...result, location, queryClient };
}
