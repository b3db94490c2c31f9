import { createTheme, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { ApiError } from '../lib/api-client.ts';
import { TOAST_DURATION } from '../lib/notify.ts';
import { usePublicSettings } from '../lib/public-settings.ts';

const theme = createTheme({ primaryColor: 'blue', defaultRadius: 'md' });

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

/** Keeps the document title on the company name from settings. */
function DocumentTitle() {
  const { data } = usePublicSettings();
  useEffect(() => {
    if (data?.company_name) document.title = data.company_name;
  }, [data?.company_name]);
  return null;
}

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} defaultColorScheme="light">
        <Notifications limit={1} autoClose={TOAST_DURATION} position="top-right" />
        <DocumentTitle />
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}
