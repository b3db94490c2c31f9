import { Stack } from '@mantine/core';
import { useMemo } from 'react';
import { PageHeader } from '@/components/page-header.tsx';
import { postbackRoutes } from '@/components/postbacks/postbacks-api.ts';
import { PostbacksWithLog } from '@/components/postbacks/postbacks-editor.tsx';

/**
 * Profile → Postbacks (the publisher's): a URL per event fired server to server when a call
 * pays, is rejected or changes, with Test, and the log of what was sent.
 */
export function PostbacksPage() {
  const routes = useMemo(() => postbackRoutes({ kind: 'self' }), []);
  return (
    <Stack gap="lg">
      <PageHeader
        title="Postbacks"
        description="Your tracker hears about each call from our server: one URL per event, with tokens for the call's details. Failed postbacks are retried for 24 hours."
      />
      <PostbacksWithLog routes={routes} titleOrder={2} />
    </Stack>
  );
}
