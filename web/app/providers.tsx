import { type CSSVariablesResolver, createTheme, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { ApiError } from '@/lib/api-client.ts';
import { useToastShown } from '@/lib/notify.ts';

// Shade 8 of blue keeps links and buttons at WCAG AA contrast (4.5:1) on white and gray.0.
// Every dialog's icon-only close button gets a name for screen readers (a dialog may name it
// more precisely).
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  // One page-title size in every area (PageHeader and the screens' own h1s): 28px, not 34px.
  headings: { sizes: { h1: { fontSize: '1.75rem', lineHeight: '1.3' } } },
  components: {
    // A plain object, not Modal.extend(): that would pull Modal's code into the first chunk.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
  },
});

// Mantine's default dimmed (gray.6) and error (red.6) text fall below 4.5:1 on white.
const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7] ?? '#495057',
    '--mantine-color-error': t.colors.red[8] ?? '#e03131',
  },
  dark: {},
});

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // 4xx answers will not change on retry; network and 5xx errors may.
        retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
}

// The toast container is fetched with the first toast (web/lib/notify.ts), not with /login.
const ToastContainer = lazy(async () => ({
  default: (await import('@/components/toast-container.tsx')).ToastContainer,
}));

/** Mounts the toast container once a toast has been asked for, then keeps it. */
function DeferredNotifications() {
  if (!useToastShown()) return null;
  return (
    <Suspense fallback={null}>
      <ToastContainer />
    </Suspense>
  );
}

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider
        theme={theme}
        defaultColorScheme="light"
        cssVariablesResolver={cssVariablesResolver}
      >
        <DeferredNotifications />
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}
