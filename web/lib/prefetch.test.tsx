import { QueryClient, QueryObserver, queryOptions } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { prefetchFirst, unlessPrefetched } from './prefetch.ts';

/** A query counting its requests, read the way the screens' hooks read it. */
function counted(key: string) {
  const calls = { n: 0 };
  const options = queryOptions({
    queryKey: [key],
    queryFn: async () => ++calls.n,
    refetchOnMount: unlessPrefetched,
  });
  return { calls, options };
}

/** Mounts the query as a screen would (an observer), waits for what it asks, unmounts. */
async function mount(client: QueryClient, options: ReturnType<typeof counted>['options']) {
  const observer = new QueryObserver(client, options);
  const off = observer.subscribe(() => {});
  await new Promise((r) => setTimeout(r, 10));
  off();
}

describe('the first load’s prefetch', () => {
  it('is not asked again by the screen that mounts it first; later mounts read it again', async () => {
    const client = new QueryClient();
    const { calls, options } = counted('stats');
    await prefetchFirst(client, options);
    expect(calls.n).toBe(1);
    await mount(client, options);
    expect(calls.n).toBe(1);
    await mount(client, options);
    expect(calls.n).toBe(2);
  });

  it('a plain prefetch is asked again at mount (what prefetchFirst saves)', async () => {
    const client = new QueryClient();
    const { calls, options } = counted('plain');
    await client.prefetchQuery(options);
    await mount(client, options);
    expect(calls.n).toBe(2);
  });
});

describe('a late prefetch', () => {
  it('asks nothing when a screen already read the query', async () => {
    const client = new QueryClient();
    const { calls, options } = counted('late');
    await mount(client, options);
    expect(calls.n).toBe(1);
    await prefetchFirst(client, options);
    expect(calls.n).toBe(1);
  });
});
