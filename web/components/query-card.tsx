import { Card, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { QueryError } from './lists/query-error.tsx';

/**
 * A screen's card of one query's data: its error state with Retry when it failed, else a card
 * with "Loading…" until the data comes, then `children(data)`.
 */
export function QueryCard<T>({
  query,
  errorTitle,
  children,
}: {
  query: UseQueryResult<T>;
  errorTitle: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isError) return <QueryError title={errorTitle} query={query} />;
  return (
    <Card withBorder padding="md">
      {query.isPending ? (
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      ) : (
        children(query.data)
      )}
    </Card>
  );
}
