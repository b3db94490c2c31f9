import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, Suspense, useState } from 'react';
import { ApiError } from '@/lib/api-client.ts';
import { lazyExport } from '@/lib/lazy-export.ts';
import { useToastShown } from '@/lib/notify.ts';
import { cssVariablesResolver, theme } from './theme.ts';

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // 4xx answers will not change on retry; network and 5xx errors may.
        retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
        // Lists and figures are read again when the window regains focus (issue 16: work done
        // in another tab or by another admin shows up); forms keep what is typed, since they
        // take their values when opened, not on every read.
        refetchOnWindowFocus: true,
      },
    },
  });
}

// The toast container is fetched with the first toast (web/lib/notify.ts), not with /login.
const ToastContainer = lazyExport(
  () => import('@/components/toast-container.tsx'),
  'ToastContainer',
);

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
