import { QueryErrorState } from '../query-error-state.tsx';

/** The part of a TanStack query its error state needs. */
type FailedQuery = { error: Error | null; isFetching: boolean; refetch: () => unknown };

/** A query's error state (`QueryErrorState`) with Retry wired to the query. */
export function QueryError({ title, query }: { title: string; query: FailedQuery }) {
  return (
    <QueryErrorState
      title={title}
      error={query.error}
      onRetry={() => void query.refetch()}
      retrying={query.isFetching}
    />
  );
}
