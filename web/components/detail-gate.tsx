import { SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { QueryError } from '@/components/lists/query-error.tsx';
import { useErrorToast } from '@/components/use-error-toast.ts';
import { ApiError } from '@/lib/api-client.ts';

/**
 * A detail screen's shape while it loads: the way back, the title, three cards in a row and
 * the two blocks under them (their heights).
 */
export function DetailSkeleton({
  label,
  cardHeight,
  below,
}: {
  label: string;
  cardHeight: number;
  below: [number, number];
}) {
  return (
    <Stack gap="lg" role="status" aria-busy="true" aria-label={label}>
      <Skeleton height={16} width={120} />
      <Skeleton height={32} width="40%" />
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Skeleton height={cardHeight} />
        <Skeleton height={cardHeight} />
        <Skeleton height={cardHeight} />
      </SimpleGrid>
      <Skeleton height={below[0]} />
      <Skeleton height={below[1]} />
    </Stack>
  );
}

/** What a detail screen shows while its record cannot be shown, and what it says then. */
type GateTexts = {
  /** The way back (a link to the list), above "not found" and the error. */
  back: ReactNode;
  skeleton: ReactNode;
  /** The error's title, in the alert and the toast, e.g. 'Error loading leads'. */
  errorTitle: string;
  notFoundTitle: string;
  notFoundText: string;
};

/**
 * What a detail screen shows until its record is there: the skeleton, "… not found" (400/404),
 * or the error with Retry (and its toast); null once loaded.
 */
export function useDetailGate(query: UseQueryResult<unknown>, texts: GateTexts): ReactNode {
  const notFound = query.error instanceof ApiError && [400, 404].includes(query.error.status);
  useErrorToast(notFound ? null : query.error, texts.errorTitle);
  if (query.isPending) return texts.skeleton;
  if (notFound) {
    return (
      <Stack gap="md">
        {texts.back}
        <Title order={1}>{texts.notFoundTitle}</Title>
        <Text c="dimmed">{texts.notFoundText}</Text>
      </Stack>
    );
  }
  if (query.isError) {
    return (
      <Stack gap="md">
        {texts.back}
        <QueryError title={texts.errorTitle} query={query} />
      </Stack>
    );
  }
  return null;
}
